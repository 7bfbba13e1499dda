use json_subtypes::json_subtypes;

#[json_subtypes(tag = "type", exact_numbers)]
enum Ledger {
    Transfer { amount: u128 },
}

#[json_subtypes(tag = "kind", exact_numbers)]
trait Account {}

fn main() {}
