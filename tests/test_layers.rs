//! The runtime's layers point one way (ARCHITECTURE.md, "Runtime layers"):
//! every `crate::module` a file of `src/` names is a module listed before
//! its own in that table. A new module must be placed in the table, and an
//! import that points up fails here, naming both modules. The names its
//! "life of one read" cites are checked against the code, so it stays true.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The top-level modules of `src/` in the order ARCHITECTURE.md's layer
/// table lists them.
fn layer_order(architecture: &str) -> Vec<String> {
    let table = architecture
        .split("## Runtime layers")
        .nth(1)
        .expect("ARCHITECTURE.md has a \"## Runtime layers\" section");
    let mut order = Vec::new();
    for row in table.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = row.split('|').collect();
        // `| layer | modules | what lives there |`, below the header rows.
        if cells.len() < 4 || cells[1].trim() == "layer" || cells[1].starts_with("---") {
            continue;
        }
        for name in cells[2].split(',') {
            order.push(name.trim().trim_matches('`').to_owned());
        }
    }
    order
}

/// Every `.rs` file under `dir`, with the top-level module it belongs to.
fn files(dir: &Path, top: Option<&str>, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let module = top.map_or(name, str::to_owned);
        if path.is_dir() {
            files(&path, Some(&module), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((module, fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The code of a file without its comments, so a doc link to another
/// module is not an import.
fn code(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules named by `crate::name` in `code`, one level deep in a
/// `crate::{a, b::c}` group.
fn named_modules(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for part in code.split("crate::").skip(1) {
        let Some(group) = part.strip_prefix('{') else {
            out.push(ident(part));
            continue;
        };
        // The group's entries at its own depth: `a`, `b::c`, `d::{e, f}`.
        let (mut depth, mut entry) = (0, String::new());
        for c in group.chars() {
            match c {
                '}' if depth == 0 => break,
                ',' if depth == 0 => out.push(ident(&std::mem::take(&mut entry))),
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => entry.push(c),
            }
        }
        out.push(ident(&entry));
    }
    out.retain(|name| !name.is_empty());
    out
}

#[test]
fn every_import_points_to_an_earlier_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let order = layer_order(&fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap());
    let rank: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut sources = Vec::new();
    files(&root.join("src"), None, &mut sources);
    let mut problems = Vec::new();
    for (module, text) in &sources {
        if module == "lib" {
            continue;
        }
        let Some(&own) = rank.get(module.as_str()) else {
            problems.push(format!(
                "src/{module} is not in ARCHITECTURE.md's layer table"
            ));
            continue;
        };
        for named in named_modules(&code(text)) {
            if named == *module || !rank.contains_key(named.as_str()) {
                // Itself, or an item of lib.rs such as `crate::Unknown`.
                continue;
            }
            if rank[named.as_str()] > own {
                problems.push(format!(
                    "src/{module} imports crate::{named}, which ARCHITECTURE.md lists after it"
                ));
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every identifier of `text`, for looking names up.
fn words(text: &str, out: &mut BTreeSet<String>) {
    let mut word = String::new();
    for c in text.chars().chain(core::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if !word.is_empty() {
            out.insert(std::mem::take(&mut word));
        }
    }
}

/// The names a section of ARCHITECTURE.md cites in backticks that look like
/// code: a path (`walk.rs`, `buffer/`, `expand/instances.rs`) or a name made
/// of identifiers (`KeySeed`, `dispatch::deserialize`,
/// `Registry::read`). Examples of input (`{"type":"dog"}`) and types
/// spelled with generics (`Box<dyn Shape>`) are left out.
fn cited(section: &str) -> Vec<String> {
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            !span.is_empty()
                && span
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '/'))
        })
        .map(str::to_owned)
        .collect()
}

/// ARCHITECTURE.md's "life of one read" section.
fn life_of_one_read(root: &Path) -> String {
    let architecture = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    architecture
        .split("## The life of one read")
        .nth(1)
        .expect("ARCHITECTURE.md has a \"## The life of one read\" section")
        .split("\n## ")
        .next()
        .unwrap()
        .to_owned()
}

/// The first line of a numbered step (`1. `, `10. `).
fn is_numbered(line: &str) -> bool {
    line.split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// ARCHITECTURE.md's "life of one read" stays true: every file it names
/// exists and every name it cites is a name in the code.
#[test]
fn the_life_of_one_read_names_what_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let section = &life_of_one_read(root);
    let mut sources = Vec::new();
    files(&root.join("src"), None, &mut sources);
    files(&root.join("macros/src"), None, &mut sources);
    let mut known = BTreeSet::new();
    for (module, text) in &sources {
        known.insert(module.clone());
        words(&code(text), &mut known);
    }
    // The paths of `benches/files/run.sh` a read names.
    let paths = fs::read_to_string(root.join("benches/alloc_count.rs")).unwrap();
    words(&paths, &mut known);
    let exists = |path: &str| {
        [
            "",
            "src",
            "src/buffer",
            "src/dispatch",
            "src/erased",
            "src/representation",
            "src/tag",
            "macros/src",
            "macros/src/expand",
        ]
        .iter()
        .any(|dir| root.join(dir).join(path).exists())
    };
    let names = cited(section);
    assert!(names.len() > 50, "only {} names found", names.len());
    let mut missing = Vec::new();
    for name in &names {
        let found = if name.ends_with(".rs") || name.ends_with('/') {
            exists(name)
        } else {
            name.split("::")
                .flat_map(|part| part.split('.'))
                .filter(|part| !part.is_empty())
                .all(|part| known.contains(part))
        };
        if !found {
            missing.push(name.as_str());
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's \"life of one read\" cites what the code does not have: {}",
        missing.join(", ")
    );
}

/// The files a path names: one file, or every file of a folder.
fn named_files(root: &Path, path: &str) -> Vec<String> {
    let dirs = ["src", "macros/src"];
    let mut out = Vec::new();
    for dir in dirs {
        let full = root.join(dir).join(path);
        if full.is_file() {
            out.push(fs::read_to_string(&full).unwrap());
        } else if full.is_dir() {
            let mut found = Vec::new();
            files(&full, None, &mut found);
            out.extend(found.into_iter().map(|(_, text)| text));
        }
    }
    out
}

/// ARCHITECTURE.md's "life of one read" goes step by step: a step names
/// the files it runs code of, and every other name it cites is in one of
/// them, so each step says truly where its code is.
#[test]
fn each_step_of_a_read_is_in_the_files_it_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let section = &life_of_one_read(root);
    // A numbered step, with its continuation lines.
    let mut steps: Vec<String> = Vec::new();
    for line in section.lines() {
        let numbered = is_numbered(line);
        if numbered {
            steps.push(line.to_owned());
        } else if line.starts_with("   ") && !steps.is_empty() {
            steps.last_mut().unwrap().push_str(line);
        } else if !line.starts_with("   ") {
            // Any other line ends a step.
            steps.push(String::new());
        }
    }
    let mut checked = 0;
    let mut problems = Vec::new();
    for step in steps.iter().filter(|s| !s.is_empty()) {
        let names = cited(step);
        let paths: Vec<&String> = names
            .iter()
            .filter(|n| n.ends_with(".rs") || n.ends_with('/'))
            .collect();
        if paths.is_empty() {
            problems.push(format!("a step names no file: {step}"));
            continue;
        }
        let mut known = BTreeSet::new();
        for path in &paths {
            let texts = named_files(root, path);
            if texts.is_empty() {
                problems.push(format!("`{path}` is no file of src/ or macros/src/"));
            }
            for text in texts {
                words(&code(&text), &mut known);
            }
        }
        for name in names.iter().filter(|n| !paths.contains(n)) {
            let parts = name.split("::").flat_map(|p| p.split('.'));
            if !parts.filter(|p| !p.is_empty()).all(|p| known.contains(p)) {
                let files: Vec<&str> = paths.iter().map(|p| p.as_str()).collect();
                problems.push(format!("`{name}` is not in {}", files.join(", ")));
            }
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} steps found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// ARCHITECTURE.md says where the runtime's `unsafe` is: the buffer's
/// blocks in `buffer/mod.rs` (it says how many), `erased/unwrap.rs` and
/// `compiled.rs`. A new `unsafe` elsewhere, or another block in the buffer,
/// fails here until the page says so.
#[test]
fn the_unsafe_code_is_where_the_architecture_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut sources = Vec::new();
    let mut paths = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    walk(&root.join("src"), &mut paths);
    for path in paths {
        let name = path.strip_prefix(root.join("src")).unwrap();
        let name = name.to_str().unwrap().replace('\\', "/");
        sources.push((name, code(&fs::read_to_string(&path).unwrap())));
    }
    let blocks = |text: &str| text.matches("unsafe {").count();
    let with_unsafe: BTreeSet<&str> = sources
        .iter()
        .filter(|(_, text)| text.contains("unsafe"))
        .map(|(name, _)| name.as_str())
        .collect();
    let named: BTreeSet<&str> = ["buffer/mod.rs", "compiled.rs", "erased/unwrap.rs"].into();
    assert_eq!(with_unsafe, named);
    for name in &named {
        assert!(
            architecture.contains(&format!("`{name}`")) || architecture.contains(name),
            "ARCHITECTURE.md does not name {name}"
        );
    }
    let buffer = &sources
        .iter()
        .find(|(n, _)| n == "buffer/mod.rs")
        .unwrap()
        .1;
    let words = ["no", "one", "two", "three", "four", "five", "six"];
    let said = format!("{} blocks in", words[blocks(buffer)]);
    assert!(
        architecture.replace('\n', " ").contains(&said),
        "buffer/mod.rs has {} `unsafe` blocks; ARCHITECTURE.md should say \"{said}\"",
        blocks(buffer)
    );
}

#[rstest::rstest]
#[case("use crate::tag::Found;", &["tag"])]
#[case("crate::buffer::Buffer::new()", &["buffer"])]
#[case("use crate::{buffer::Buffer, tag::{Found, Literal}, state};", &["buffer", "tag", "state"])]
#[case("let x = 1; // see crate::profile", &[])]
fn modules_are_read_from_code(#[case] text: &str, #[case] expected: &[&str]) {
    assert_eq!(named_modules(&code(text)), expected);
}

/// The numbered steps of `text` (each with its continuation lines), up to
/// the first line that is neither.
fn numbered_steps(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let numbered = is_numbered(line);
        let continued = line.starts_with("   ") && !out.is_empty();
        if !numbered && !continued {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A read of ARCHITECTURE.md's "life of one read" that sums up its files
/// (`Nine files in five modules: ...`, from `benches/files/run.sh`) lists
/// exactly the runtime's files its steps name: a step that names a folder
/// (`erased/`) covers the files listed under it.
#[test]
fn each_read_sums_up_the_files_its_steps_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let section = &life_of_one_read(root);
    let runtime = |text: &str| -> BTreeSet<String> {
        cited(text)
            .into_iter()
            .filter(|p| p.ends_with(".rs") || p.ends_with('/'))
            .filter(|p| root.join("src").join(p).exists())
            .collect()
    };
    let mut checked = 0;
    let mut problems = Vec::new();
    for read in section.split("\n**").skip(1) {
        let title = read.split("**").next().unwrap_or_default();
        let Some((summary, rest)) = read.split_once("\n1. ") else {
            continue;
        };
        if !summary.contains(" files in ") {
            continue;
        }
        let summed = runtime(summary);
        let named = runtime(&numbered_steps(&format!("1. {rest}")));
        for file in &summed {
            if !named
                .iter()
                .any(|n| n == file || (n.ends_with('/') && file.starts_with(n.as_str())))
            {
                problems.push(format!("{title}: `{file}` is listed but no step runs it"));
            }
        }
        for name in &named {
            let listed = if name.ends_with('/') {
                summed.iter().any(|f| f.starts_with(name.as_str()))
            } else {
                summed.contains(name)
            };
            if !listed {
                problems.push(format!(
                    "{title}: a step runs `{name}`, which is not listed"
                ));
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 3, "the three reads that sum up their files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
