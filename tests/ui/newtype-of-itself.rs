use json_subtypes::json_subtypes;

#[json_subtypes(tag = "op")]
enum Expr {
    Num { value: i64 },
    Neg(Box<Expr>),
}

fn main() {}
