use json_subtypes::json_subtypes;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Dog { name: String, age: u32 }

#[json_subtypes(tag = "type")]
#[derive(Debug, Clone, PartialEq)]
enum Animal {
    #[json_subtypes(name = "dog")]
    Dog(Dog),
    #[json_subtypes(name = 3, alias = "bird")]
    Bird { name: String, #[serde(default)] wingspan_cm: f32 },
    Fish,
}

#[test]
fn scratch() {
    let a: Animal = serde_json::from_str(r#"{"type":"dog","name":"Rex","age":3}"#).unwrap();
    println!("{a:?} {}", serde_json::to_string(&a).unwrap());
    let a: Animal = serde_json::from_str(r#"{"name":"Rex","age":3,"type":"dog"}"#).unwrap();
    println!("{a:?} {}", serde_json::to_string(&a).unwrap());
    let a: Animal = serde_json::from_str(r#"{"name":"Tweety","type":3}"#).unwrap();
    println!("{a:?} {}", serde_json::to_string(&a).unwrap());
    let a: Animal = serde_json::from_str(r#"{"type":"Fish"}"#).unwrap();
    println!("{a:?} {}", serde_json::to_string(&a).unwrap());
    for bad in [r#"{"type":"cat"}"#, r#"{"name":"x"}"#, r#"{"type":"dog","type":"dog"}"#, r#"{"type":null}"#, r#"{"type":"dog","name":1}"#, r#"{"name":"Rex","age":3,"type":"dog","type":1}"#] {
        println!("{}", serde_json::from_str::<Animal>(bad).unwrap_err());
    }
}
