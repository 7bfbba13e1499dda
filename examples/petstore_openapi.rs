//! An OpenAPI 3.1 document for a small pet store, written by utoipa's
//! `#[derive(OpenApi)]`: a `Pet` enum and a `Box<dyn Toy>` trait object,
//! each a `oneOf` over its subtypes with the tag as `const` and OpenAPI's
//! `discriminator` mapping every tag to its payload's component schema.
//!
//! Run with `cargo run --example petstore_openapi --features utoipa`.

use json_subtypes::json_subtypes;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use utoipa::OpenApi;

/// A dog, with its name.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Dog {
    pub name: String,
    #[serde(default)]
    pub good_boy: bool,
}

/// A cat, with how many lives it has left.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Cat {
    pub name: String,
    pub lives: u8,
}

/// A pet in the store, picked by `petType`.
#[json_subtypes(tag = "petType", rename_all = "lowercase")]
#[derive(Debug)]
pub enum Pet {
    Dog(Dog),
    Cat(Cat),
}

/// A toy: an open set of kinds, registered by impls (here, and in any crate
/// linked in).
#[json_subtypes(tag = "kind", schema)]
pub trait Toy {
    fn price_cents(&self) -> u32;
}

/// utoipa's macros read `Box<T>` as `T` and cannot name `dyn Toy`: an
/// alias names the box, whose `ToSchema` the trait attribute implements.
pub type AnyToy = Box<dyn Toy>;

/// A ball.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Ball {
    pub diameter_cm: f64,
}

#[json_subtypes(name = "ball")]
impl Toy for Ball {
    fn price_cents(&self) -> u32 {
        300
    }
}

/// A rope to pull on.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Rope {
    pub length_cm: f64,
}

#[json_subtypes(name = "rope")]
impl Toy for Rope {
    fn price_cents(&self) -> u32 {
        450
    }
}

/// Adds a pet to the store.
#[utoipa::path(post, path = "/pets", request_body = Pet, responses((status = 201, body = Pet)))]
#[allow(dead_code)]
fn add_pet() {}

/// Adds a toy to the store.
#[utoipa::path(post, path = "/toys", request_body = AnyToy, responses((status = 201, body = AnyToy)))]
#[allow(dead_code)]
fn add_toy() {}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Pet store",
        version = "1.0.0",
        description = "Pets and toys, each picked by its tag"
    ),
    paths(add_pet, add_toy),
    components(schemas(Pet, AnyToy))
)]
pub struct PetStore;

fn main() {
    println!("{}", PetStore::openapi().to_pretty_json().unwrap());
    // What the API reads and writes:
    let pet: Pet = serde_json::from_str(r#"{"petType":"cat","name":"Tom","lives":9}"#).unwrap();
    let toy: Box<dyn Toy> = serde_json::from_str(r#"{"kind":"rope","length_cm":80.0}"#).unwrap();
    eprintln!("{}", serde_json::to_string(&pet).unwrap());
    eprintln!(
        "{} ({} cents)",
        serde_json::to_string(&toy).unwrap(),
        toy.price_cents()
    );
}
