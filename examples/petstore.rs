//! An OpenAPI-style pet store. `Pet` has the discriminator `petType` with a
//! mapping (`dog` -> Dog, `cat` -> Cat, the schema names `Dog` and `Cat`
//! accepted too) and a default mapping: pet types this client does not know
//! pass through unchanged. An order's payment is discriminated by `method`,
//! whose values are the enum schema `PaymentMethod` (a typed tag).
//!
//! Run with `cargo run --example petstore`.

use json_subtypes::{json_subtypes, Unknown};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Dog {
    id: u64,
    name: String,
    pack_size: u32,
    #[serde(default)]
    is_good_boy: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cat {
    id: u64,
    name: String,
    hunting_skill: HuntingSkill,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum HuntingSkill {
    Clueless,
    Lazy,
    Adventurous,
    Aggressive,
}

/// `discriminator: {propertyName: petType, mapping: {dog: Dog, cat: Cat}}`.
#[json_subtypes(tag = "petType", rename_all = "camelCase")]
#[derive(Debug, Clone, PartialEq)]
enum Pet {
    #[json_subtypes(name = "dog", alias = "Dog")]
    Dog(Dog),
    #[json_subtypes(name = "cat", alias = "Cat")]
    Cat(Cat),
    /// No mapping entry: the tag comes from `rename_all`, "goldFish".
    GoldFish { id: u64, name: String },
    /// The default mapping: any other pet, kept as the server sent it.
    #[json_subtypes(fallback)]
    Other(Unknown),
}

/// `PaymentMethod: {type: string, enum: [CARD, CASH, VOUCHER]}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum PaymentMethod {
    #[serde(alias = "CREDIT_CARD")]
    Card,
    Cash,
    Voucher,
}

#[json_subtypes(tag = "method", tag_type = PaymentMethod)]
#[derive(Debug, Clone, PartialEq)]
enum Payment {
    #[json_subtypes(name = PaymentMethod::Card)]
    Card { last4: String },
    #[json_subtypes(name = PaymentMethod::Cash)]
    Cash,
    #[json_subtypes(name = PaymentMethod::Voucher)]
    Voucher { code: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Order {
    id: u64,
    pet_id: u64,
    quantity: u32,
    payment: Payment,
}

/// `GET /pet/findByStatus?status=available`, as a newer server answers it:
/// tags first or last, a schema name as tag, and a pet type (`parrot`) that
/// this client's version of the spec does not have.
const PETS: &str = r#"[
  {"petType": "dog", "id": 1, "name": "Rex", "packSize": 3, "isGoodBoy": true},
  {"id": 2, "name": "Tom", "huntingSkill": "lazy", "petType": "Cat"},
  {"petType": "goldFish", "id": 3, "name": "Bubbles"},
  {"petType": "parrot", "id": 4, "name": "Polly", "vocabulary": ["hello", "cracker"], "wingspanCm": 25.5}
]"#;

/// `POST /store/order` bodies; the last one uses an alias of `CARD`.
const ORDERS: &str = r#"[
  {"id": 10, "petId": 1, "quantity": 1, "payment": {"method": "CASH"}},
  {"id": 11, "petId": 2, "quantity": 1, "payment": {"method": "VOUCHER", "code": "SPRING-24"}},
  {"id": 12, "petId": 4, "quantity": 1, "payment": {"last4": "4242", "method": "CREDIT_CARD"}}
]"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pets: Vec<Pet> = serde_json::from_str(PETS)?;
    println!("{} pets available:", pets.len());
    for pet in &pets {
        match pet {
            Pet::Dog(dog) => println!(
                "  dog  #{} {} (pack of {})",
                dog.id, dog.name, dog.pack_size
            ),
            Pet::Cat(cat) => println!(
                "  cat  #{} {} ({:?} hunter)",
                cat.id, cat.name, cat.hunting_skill
            ),
            Pet::GoldFish { id, name } => println!("  fish #{id} {name}"),
            Pet::Other(other) => {
                let kind = other.tag::<String>().transpose()?.unwrap_or_default();
                let id = other.get::<u64>("id").transpose()?.unwrap_or_default();
                let name = other.get::<String>("name").transpose()?.unwrap_or_default();
                println!("  {kind} #{id} {name} (a type this client does not know, kept as is)");
            }
        }
    }
    assert!(matches!(&pets[0], Pet::Dog(d) if d.is_good_boy && d.pack_size == 3));
    assert!(matches!(&pets[1], Pet::Cat(c) if c.hunting_skill == HuntingSkill::Lazy));
    let Pet::Other(parrot) = &pets[3] else {
        return Err(format!("the parrot read as {:?}", pets[3]).into());
    };
    assert_eq!(
        parrot.tag::<String>().transpose()?.as_deref(),
        Some("parrot")
    );
    assert_eq!(
        parrot
            .get::<Vec<String>>("vocabulary")
            .transpose()?
            .map(|v| v.len()),
        Some(2)
    );

    // Written back: the mapped names, the tag first, and the parrot untouched.
    let written = serde_json::to_string(&pets)?;
    println!("written back ({} bytes): {written}", written.len());
    let lines: Vec<String> = pets
        .iter()
        .map(serde_json::to_string)
        .collect::<Result<_, _>>()?;
    assert_eq!(
        lines[0],
        r#"{"petType":"dog","id":1,"name":"Rex","packSize":3,"isGoodBoy":true}"#
    );
    assert_eq!(
        lines[1],
        r#"{"petType":"cat","id":2,"name":"Tom","huntingSkill":"lazy"}"#
    );
    assert_eq!(
        lines[2],
        r#"{"petType":"goldFish","id":3,"name":"Bubbles"}"#
    );
    assert_eq!(
        lines[3],
        r#"{"petType":"parrot","id":4,"name":"Polly","vocabulary":["hello","cracker"],"wingspanCm":25.5}"#
    );
    assert_eq!(serde_json::from_str::<Vec<Pet>>(&written)?, pets);

    // A known type with a bad body is the body's error, never the fallback.
    let err = match serde_json::from_str::<Pet>(r#"{"petType": "cat", "id": 5, "name": "Felix"}"#) {
        Ok(pet) => return Err(format!("a cat without huntingSkill read as {pet:?}").into()),
        Err(err) => err,
    };
    println!("a cat without huntingSkill: {err}");
    assert!(err.to_string().starts_with("missing field `huntingSkill`"));

    let orders: Vec<Order> = serde_json::from_str(ORDERS)?;
    println!("{} orders:", orders.len());
    for order in &orders {
        println!(
            "  #{} pet #{} paid by {:?}",
            order.id, order.pet_id, order.payment
        );
    }
    assert_eq!(orders[0].payment, Payment::Cash);
    assert_eq!(
        orders[2].payment,
        Payment::Card {
            last4: "4242".into()
        }
    );
    // The typed tag is written through PaymentMethod: `CREDIT_CARD` becomes `CARD`.
    let written = serde_json::to_string(&orders[2])?;
    println!("written back: {written}");
    assert_eq!(
        written,
        r#"{"id":12,"petId":4,"quantity":1,"payment":{"method":"CARD","last4":"4242"}}"#
    );

    // A payment method outside the enum is PaymentMethod's own error.
    let err = match serde_json::from_str::<Payment>(r#"{"method": "BITCOIN"}"#) {
        Ok(payment) => return Err(format!("BITCOIN read as {payment:?}").into()),
        Err(err) => err,
    };
    println!("an unknown payment method: {err}");
    assert!(err.to_string().starts_with("unknown variant `BITCOIN`"));
    Ok(())
}
