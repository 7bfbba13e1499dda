//! Scale: hierarchies of 4, 16, 64 and 256 variants, string tags and int
//! tags, read as 1,000 one-field objects spread over every variant (the
//! cost per object should not depend on the size of the hierarchy), and
//! one object of 16 fields with its tag at position k (at most linear in
//! k). Paths of `benches/alloc_count.rs` (`scale_*`, `pos_*`); the tables of
//! PERFORMANCE.md come from `benches/instructions.sh '^(scale_|pos_)'`.
//!
//! The enums are written by `hierarchy!` from the lists below: variant
//! `V<i>` holds the one-field `Pup`, with the string tag `"kind_<iii>"`
//! (every tag the same length: no comparison is settled by the length) or
//! the int tag `i`.

use std::hint::black_box;

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

use crate::common::{json_array, Inputs};

/// The payload of every variant: `Dog`'s shape, as a type of its own. Its
/// reader over the rest of an object is called from every variant of every
/// hierarchy here; on `Dog` itself, the one-field enum's `Dog` reader
/// (`common::small`) would share those callers, and LLVM would inline it
/// into none of them (PERFORMANCE.md, "Time and instructions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pup {
    pub name: String,
}

type Run = Box<dyn Fn(&Inputs)>;

macro_rules! hierarchy {
    ($str_enum:ident, $int_enum:ident, $($v:ident $tag:tt $int:tt)*) => {
        #[json_subtypes(tag = "type")]
        #[derive(Debug, Clone, PartialEq)]
        pub enum $str_enum {
            $(#[json_subtypes(name = $tag)] $v(Pup),)*
        }

        #[json_subtypes(tag = "type")]
        #[derive(Debug, Clone, PartialEq)]
        pub enum $int_enum {
            $(#[json_subtypes(name = $int)] $v(Pup),)*
        }
    };
}

macro_rules! hierarchies {
    ($($str_enum:ident $int_enum:ident [$(($v:ident $tag:tt $int:tt))*])*) => {
        $(hierarchy!($str_enum, $int_enum, $($v $tag $int)*);)*
    };
}

hierarchies! {
    Str4 Int4 [
        (V0 "kind_000" 0)
        (V1 "kind_001" 1)
        (V2 "kind_002" 2)
        (V3 "kind_003" 3)
    ]
    Str16 Int16 [
        (V0 "kind_000" 0)
        (V1 "kind_001" 1)
        (V2 "kind_002" 2)
        (V3 "kind_003" 3)
        (V4 "kind_004" 4)
        (V5 "kind_005" 5)
        (V6 "kind_006" 6)
        (V7 "kind_007" 7)
        (V8 "kind_008" 8)
        (V9 "kind_009" 9)
        (V10 "kind_010" 10)
        (V11 "kind_011" 11)
        (V12 "kind_012" 12)
        (V13 "kind_013" 13)
        (V14 "kind_014" 14)
        (V15 "kind_015" 15)
    ]
    Str64 Int64 [
        (V0 "kind_000" 0)
        (V1 "kind_001" 1)
        (V2 "kind_002" 2)
        (V3 "kind_003" 3)
        (V4 "kind_004" 4)
        (V5 "kind_005" 5)
        (V6 "kind_006" 6)
        (V7 "kind_007" 7)
        (V8 "kind_008" 8)
        (V9 "kind_009" 9)
        (V10 "kind_010" 10)
        (V11 "kind_011" 11)
        (V12 "kind_012" 12)
        (V13 "kind_013" 13)
        (V14 "kind_014" 14)
        (V15 "kind_015" 15)
        (V16 "kind_016" 16)
        (V17 "kind_017" 17)
        (V18 "kind_018" 18)
        (V19 "kind_019" 19)
        (V20 "kind_020" 20)
        (V21 "kind_021" 21)
        (V22 "kind_022" 22)
        (V23 "kind_023" 23)
        (V24 "kind_024" 24)
        (V25 "kind_025" 25)
        (V26 "kind_026" 26)
        (V27 "kind_027" 27)
        (V28 "kind_028" 28)
        (V29 "kind_029" 29)
        (V30 "kind_030" 30)
        (V31 "kind_031" 31)
        (V32 "kind_032" 32)
        (V33 "kind_033" 33)
        (V34 "kind_034" 34)
        (V35 "kind_035" 35)
        (V36 "kind_036" 36)
        (V37 "kind_037" 37)
        (V38 "kind_038" 38)
        (V39 "kind_039" 39)
        (V40 "kind_040" 40)
        (V41 "kind_041" 41)
        (V42 "kind_042" 42)
        (V43 "kind_043" 43)
        (V44 "kind_044" 44)
        (V45 "kind_045" 45)
        (V46 "kind_046" 46)
        (V47 "kind_047" 47)
        (V48 "kind_048" 48)
        (V49 "kind_049" 49)
        (V50 "kind_050" 50)
        (V51 "kind_051" 51)
        (V52 "kind_052" 52)
        (V53 "kind_053" 53)
        (V54 "kind_054" 54)
        (V55 "kind_055" 55)
        (V56 "kind_056" 56)
        (V57 "kind_057" 57)
        (V58 "kind_058" 58)
        (V59 "kind_059" 59)
        (V60 "kind_060" 60)
        (V61 "kind_061" 61)
        (V62 "kind_062" 62)
        (V63 "kind_063" 63)
    ]
    Str256 Int256 [
        (V0 "kind_000" 0)
        (V1 "kind_001" 1)
        (V2 "kind_002" 2)
        (V3 "kind_003" 3)
        (V4 "kind_004" 4)
        (V5 "kind_005" 5)
        (V6 "kind_006" 6)
        (V7 "kind_007" 7)
        (V8 "kind_008" 8)
        (V9 "kind_009" 9)
        (V10 "kind_010" 10)
        (V11 "kind_011" 11)
        (V12 "kind_012" 12)
        (V13 "kind_013" 13)
        (V14 "kind_014" 14)
        (V15 "kind_015" 15)
        (V16 "kind_016" 16)
        (V17 "kind_017" 17)
        (V18 "kind_018" 18)
        (V19 "kind_019" 19)
        (V20 "kind_020" 20)
        (V21 "kind_021" 21)
        (V22 "kind_022" 22)
        (V23 "kind_023" 23)
        (V24 "kind_024" 24)
        (V25 "kind_025" 25)
        (V26 "kind_026" 26)
        (V27 "kind_027" 27)
        (V28 "kind_028" 28)
        (V29 "kind_029" 29)
        (V30 "kind_030" 30)
        (V31 "kind_031" 31)
        (V32 "kind_032" 32)
        (V33 "kind_033" 33)
        (V34 "kind_034" 34)
        (V35 "kind_035" 35)
        (V36 "kind_036" 36)
        (V37 "kind_037" 37)
        (V38 "kind_038" 38)
        (V39 "kind_039" 39)
        (V40 "kind_040" 40)
        (V41 "kind_041" 41)
        (V42 "kind_042" 42)
        (V43 "kind_043" 43)
        (V44 "kind_044" 44)
        (V45 "kind_045" 45)
        (V46 "kind_046" 46)
        (V47 "kind_047" 47)
        (V48 "kind_048" 48)
        (V49 "kind_049" 49)
        (V50 "kind_050" 50)
        (V51 "kind_051" 51)
        (V52 "kind_052" 52)
        (V53 "kind_053" 53)
        (V54 "kind_054" 54)
        (V55 "kind_055" 55)
        (V56 "kind_056" 56)
        (V57 "kind_057" 57)
        (V58 "kind_058" 58)
        (V59 "kind_059" 59)
        (V60 "kind_060" 60)
        (V61 "kind_061" 61)
        (V62 "kind_062" 62)
        (V63 "kind_063" 63)
        (V64 "kind_064" 64)
        (V65 "kind_065" 65)
        (V66 "kind_066" 66)
        (V67 "kind_067" 67)
        (V68 "kind_068" 68)
        (V69 "kind_069" 69)
        (V70 "kind_070" 70)
        (V71 "kind_071" 71)
        (V72 "kind_072" 72)
        (V73 "kind_073" 73)
        (V74 "kind_074" 74)
        (V75 "kind_075" 75)
        (V76 "kind_076" 76)
        (V77 "kind_077" 77)
        (V78 "kind_078" 78)
        (V79 "kind_079" 79)
        (V80 "kind_080" 80)
        (V81 "kind_081" 81)
        (V82 "kind_082" 82)
        (V83 "kind_083" 83)
        (V84 "kind_084" 84)
        (V85 "kind_085" 85)
        (V86 "kind_086" 86)
        (V87 "kind_087" 87)
        (V88 "kind_088" 88)
        (V89 "kind_089" 89)
        (V90 "kind_090" 90)
        (V91 "kind_091" 91)
        (V92 "kind_092" 92)
        (V93 "kind_093" 93)
        (V94 "kind_094" 94)
        (V95 "kind_095" 95)
        (V96 "kind_096" 96)
        (V97 "kind_097" 97)
        (V98 "kind_098" 98)
        (V99 "kind_099" 99)
        (V100 "kind_100" 100)
        (V101 "kind_101" 101)
        (V102 "kind_102" 102)
        (V103 "kind_103" 103)
        (V104 "kind_104" 104)
        (V105 "kind_105" 105)
        (V106 "kind_106" 106)
        (V107 "kind_107" 107)
        (V108 "kind_108" 108)
        (V109 "kind_109" 109)
        (V110 "kind_110" 110)
        (V111 "kind_111" 111)
        (V112 "kind_112" 112)
        (V113 "kind_113" 113)
        (V114 "kind_114" 114)
        (V115 "kind_115" 115)
        (V116 "kind_116" 116)
        (V117 "kind_117" 117)
        (V118 "kind_118" 118)
        (V119 "kind_119" 119)
        (V120 "kind_120" 120)
        (V121 "kind_121" 121)
        (V122 "kind_122" 122)
        (V123 "kind_123" 123)
        (V124 "kind_124" 124)
        (V125 "kind_125" 125)
        (V126 "kind_126" 126)
        (V127 "kind_127" 127)
        (V128 "kind_128" 128)
        (V129 "kind_129" 129)
        (V130 "kind_130" 130)
        (V131 "kind_131" 131)
        (V132 "kind_132" 132)
        (V133 "kind_133" 133)
        (V134 "kind_134" 134)
        (V135 "kind_135" 135)
        (V136 "kind_136" 136)
        (V137 "kind_137" 137)
        (V138 "kind_138" 138)
        (V139 "kind_139" 139)
        (V140 "kind_140" 140)
        (V141 "kind_141" 141)
        (V142 "kind_142" 142)
        (V143 "kind_143" 143)
        (V144 "kind_144" 144)
        (V145 "kind_145" 145)
        (V146 "kind_146" 146)
        (V147 "kind_147" 147)
        (V148 "kind_148" 148)
        (V149 "kind_149" 149)
        (V150 "kind_150" 150)
        (V151 "kind_151" 151)
        (V152 "kind_152" 152)
        (V153 "kind_153" 153)
        (V154 "kind_154" 154)
        (V155 "kind_155" 155)
        (V156 "kind_156" 156)
        (V157 "kind_157" 157)
        (V158 "kind_158" 158)
        (V159 "kind_159" 159)
        (V160 "kind_160" 160)
        (V161 "kind_161" 161)
        (V162 "kind_162" 162)
        (V163 "kind_163" 163)
        (V164 "kind_164" 164)
        (V165 "kind_165" 165)
        (V166 "kind_166" 166)
        (V167 "kind_167" 167)
        (V168 "kind_168" 168)
        (V169 "kind_169" 169)
        (V170 "kind_170" 170)
        (V171 "kind_171" 171)
        (V172 "kind_172" 172)
        (V173 "kind_173" 173)
        (V174 "kind_174" 174)
        (V175 "kind_175" 175)
        (V176 "kind_176" 176)
        (V177 "kind_177" 177)
        (V178 "kind_178" 178)
        (V179 "kind_179" 179)
        (V180 "kind_180" 180)
        (V181 "kind_181" 181)
        (V182 "kind_182" 182)
        (V183 "kind_183" 183)
        (V184 "kind_184" 184)
        (V185 "kind_185" 185)
        (V186 "kind_186" 186)
        (V187 "kind_187" 187)
        (V188 "kind_188" 188)
        (V189 "kind_189" 189)
        (V190 "kind_190" 190)
        (V191 "kind_191" 191)
        (V192 "kind_192" 192)
        (V193 "kind_193" 193)
        (V194 "kind_194" 194)
        (V195 "kind_195" 195)
        (V196 "kind_196" 196)
        (V197 "kind_197" 197)
        (V198 "kind_198" 198)
        (V199 "kind_199" 199)
        (V200 "kind_200" 200)
        (V201 "kind_201" 201)
        (V202 "kind_202" 202)
        (V203 "kind_203" 203)
        (V204 "kind_204" 204)
        (V205 "kind_205" 205)
        (V206 "kind_206" 206)
        (V207 "kind_207" 207)
        (V208 "kind_208" 208)
        (V209 "kind_209" 209)
        (V210 "kind_210" 210)
        (V211 "kind_211" 211)
        (V212 "kind_212" 212)
        (V213 "kind_213" 213)
        (V214 "kind_214" 214)
        (V215 "kind_215" 215)
        (V216 "kind_216" 216)
        (V217 "kind_217" 217)
        (V218 "kind_218" 218)
        (V219 "kind_219" 219)
        (V220 "kind_220" 220)
        (V221 "kind_221" 221)
        (V222 "kind_222" 222)
        (V223 "kind_223" 223)
        (V224 "kind_224" 224)
        (V225 "kind_225" 225)
        (V226 "kind_226" 226)
        (V227 "kind_227" 227)
        (V228 "kind_228" 228)
        (V229 "kind_229" 229)
        (V230 "kind_230" 230)
        (V231 "kind_231" 231)
        (V232 "kind_232" 232)
        (V233 "kind_233" 233)
        (V234 "kind_234" 234)
        (V235 "kind_235" 235)
        (V236 "kind_236" 236)
        (V237 "kind_237" 237)
        (V238 "kind_238" 238)
        (V239 "kind_239" 239)
        (V240 "kind_240" 240)
        (V241 "kind_241" 241)
        (V242 "kind_242" 242)
        (V243 "kind_243" 243)
        (V244 "kind_244" 244)
        (V245 "kind_245" 245)
        (V246 "kind_246" 246)
        (V247 "kind_247" 247)
        (V248 "kind_248" 248)
        (V249 "kind_249" 249)
        (V250 "kind_250" 250)
        (V251 "kind_251" 251)
        (V252 "kind_252" 252)
        (V253 "kind_253" 253)
        (V254 "kind_254" 254)
        (V255 "kind_255" 255)
    ]
}

/// The hierarchy sizes.
pub const SIZES: [usize; 4] = [4, 16, 64, 256];

/// Objects per read.
const OBJECTS: usize = 1000;

/// `OBJECTS` objects, object `j` of variant `j % size`.
fn objects(size: usize, tag: impl Fn(usize) -> String) -> String {
    json_array((0..OBJECTS).map(|j| format!(r#"{{"type":{},"name":"Rex"}}"#, tag(j % size))))
}

/// Reads `json` as a `Vec<T>` and checks it writes back the same text.
fn read<T: serde::de::DeserializeOwned + Serialize>(json: &str) -> Vec<T> {
    serde_json::from_str(json).unwrap()
}

fn checked<T: serde::de::DeserializeOwned + Serialize>(json: String) -> String {
    let read: Vec<T> = read(&json);
    assert_eq!(read.len(), OBJECTS);
    assert_eq!(serde_json::to_string(&read).unwrap(), json, "scale input");
    json
}

/// A path's name, description and operation.
pub type ScalePath = (String, String, Run);

fn scale_path<T>(name: String, what: String, json: String) -> ScalePath
where
    T: serde::de::DeserializeOwned + Serialize + 'static,
{
    let json = checked::<T>(json);
    (
        name,
        what,
        Box::new(move |_| drop(black_box(read::<T>(black_box(&json))))),
    )
}

/// Sixteen fields; the enum puts its tag anywhere among them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wide {
    pub f00: u32,
    pub f01: u32,
    pub f02: u32,
    pub f03: u32,
    pub f04: u32,
    pub f05: u32,
    pub f06: u32,
    pub f07: u32,
    pub f08: u32,
    pub f09: u32,
    pub f10: u32,
    pub f11: u32,
    pub f12: u32,
    pub f13: u32,
    pub f14: u32,
    pub f15: u32,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum WideEnum {
    #[json_subtypes(name = "wide")]
    Wide(Wide),
    #[json_subtypes(name = "other")]
    Other(Wide),
}

/// The tag positions measured: after k of the 16 fields.
pub const POSITIONS: [usize; 7] = [0, 1, 2, 4, 8, 12, 16];

/// `{"f00":0,...,"f15":15}` with `"type":"wide"` after the first `k` fields
/// (`None`: no tag).
fn wide_json(k: Option<usize>) -> String {
    let mut entries: Vec<String> = (0..16)
        .map(|i| format!(r#""f{i:02}":{}"#, 1000 + i))
        .collect();
    if let Some(k) = k {
        entries.insert(k, r#""type":"wide""#.to_owned());
    }
    format!("{{{}}}", entries.join(","))
}

#[inline(never)]
fn de_wide_plain(json: &str) -> Wide {
    serde_json::from_str(json).unwrap()
}

#[inline(never)]
fn de_wide(json: &str) -> WideEnum {
    serde_json::from_str(json).unwrap()
}

/// Every scale path, its input built and checked here.
pub fn paths() -> Vec<ScalePath> {
    let plain = json_array((0..OBJECTS).map(|_| r#"{"name":"Rex"}"#.to_owned()));
    assert_eq!(read::<Pup>(&plain).len(), OBJECTS);
    let mut out: Vec<ScalePath> = vec![(
        "scale_plain".to_owned(),
        format!("{OBJECTS} one-field plain structs"),
        Box::new(move |_| drop(black_box(read::<Pup>(black_box(&plain))))),
    )];
    let str_tag = |i: usize| format!(r#""kind_{i:03}""#);
    let int_tag = |i: usize| i.to_string();
    for size in SIZES {
        let what = |kind| format!("{OBJECTS} objects over {size} variants, {kind} tags");
        let (s, i) = (objects(size, str_tag), objects(size, int_tag));
        let name = |kind| format!("scale_{kind}_{size}");
        out.push(match size {
            4 => scale_path::<Str4>(name("str"), what("string"), s),
            16 => scale_path::<Str16>(name("str"), what("string"), s),
            64 => scale_path::<Str64>(name("str"), what("string"), s),
            _ => scale_path::<Str256>(name("str"), what("string"), s),
        });
        out.push(match size {
            4 => scale_path::<Int4>(name("int"), what("int"), i),
            16 => scale_path::<Int16>(name("int"), what("int"), i),
            64 => scale_path::<Int64>(name("int"), what("int"), i),
            _ => scale_path::<Int256>(name("int"), what("int"), i),
        });
    }
    let plain = wide_json(None);
    let wide = de_wide_plain(&plain);
    out.push((
        "pos_plain".to_owned(),
        "16 fields: plain struct".to_owned(),
        Box::new(move |_| {
            black_box(de_wide_plain(black_box(&plain)));
        }),
    ));
    for k in POSITIONS {
        let json = wide_json(Some(k));
        assert_eq!(de_wide(&json), WideEnum::Wide(wide.clone()), "tag at {k}");
        out.push((
            format!("pos_{k}"),
            format!("16 fields: ours, tag after {k} fields"),
            Box::new(move |_| {
                black_box(de_wide(black_box(&json)));
            }),
        ));
    }
    out
}
