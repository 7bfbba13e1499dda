//! `write_probe ROW N`: serializes the one-field object N times into a
//! reused buffer, ROW being `plain`, `ours` or `serde`. Count with
//! `run.sh`, which subtracts the run with N = 0.

use std::hint::black_box;

use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dog {
    pub name: String,
}

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
pub enum Pet {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum SerdePet {
    #[serde(rename = "dog")]
    Dog(Dog),
}

#[cfg(feature = "shared")]
mod shared {
    use super::*;

    #[json_subtypes(tag = "kind")]
    pub enum Pet2 {
        #[json_subtypes(name = "d")]
        Dog(Dog),
    }

    #[json_subtypes(tag = "k")]
    pub enum Pet3 {
        #[json_subtypes(name = "d")]
        Dog(Dog),
    }

    #[derive(Serialize)]
    #[serde(tag = "kind")]
    pub enum SerdePet2 {
        #[serde(rename = "d")]
        Dog(Dog),
    }

    #[derive(Serialize)]
    #[serde(tag = "k")]
    pub enum SerdePet3 {
        #[serde(rename = "d")]
        Dog(Dog),
    }

    pub fn warm(dog: &Dog, buf: &mut Vec<u8>) {
        write(&Pet2::Dog(dog.clone()), buf);
        write(&Pet3::Dog(dog.clone()), buf);
        write(&SerdePet2::Dog(dog.clone()), buf);
        write(&SerdePet3::Dog(dog.clone()), buf);
    }
}

#[inline(never)]
fn write<T: Serialize>(value: &T, buf: &mut Vec<u8>) {
    buf.clear();
    serde_json::to_writer(&mut *buf, value).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (row, n) = (args[1].as_str(), args[2].parse::<usize>().unwrap());
    let dog = Dog { name: "Rex".into() };
    let (ours, serde) = (Pet::Dog(dog.clone()), SerdePet::Dog(dog.clone()));
    let mut buf = Vec::with_capacity(256);
    write(&ours, &mut buf);
    let written = buf.clone();
    write(&serde, &mut buf);
    assert_eq!(written, buf, "ours and serde's twin write the same bytes");
    #[cfg(feature = "shared")]
    shared::warm(&dog, &mut buf);
    // The row is chosen once, so that the loop compares no strings.
    let run: &dyn Fn(&mut Vec<u8>) = match row {
        "plain" => &|buf| write(black_box(&dog), buf),
        "ours" => &|buf| write(black_box(&ours), buf),
        "serde" => &|buf| write(black_box(&serde), buf),
        _ => panic!("rows: plain, ours, serde"),
    };
    for _ in 0..n {
        run(&mut buf);
        black_box(&buf);
    }
}
