//! JSON-RPC 2.0 messages, which have no type field: the members present say
//! what a message is. `method` makes a call, and a call with an `id` is a
//! request, one without is a notification; `result` makes a success
//! response, `error` an error response. A tiny server answers the batch
//! example of the spec, and an object with both `result` and `error` is
//! refused as ambiguous.
//!
//! Run with `cargo run --example jsonrpc`.

use json_subtypes::{json_subtypes, Unknown};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A request id: a string or a number (and `null` where the spec allows it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Id {
    Number(i64),
    String(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Request {
    jsonrpc: String,
    method: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
    id: Id,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Notification {
    jsonrpc: String,
    method: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
}

/// The second level: among calls, an `id` makes a request; the rest are
/// notifications, so the fallback variant takes them.
#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Call {
    #[json_subtypes(when_field = "id")]
    Request(Request),
    #[json_subtypes(fallback)]
    Notification(Notification),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ErrorObject {
    code: i64,
    message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<Value>,
}

#[json_subtypes]
#[derive(Debug, Clone, PartialEq)]
enum Message {
    #[json_subtypes(when_field = "method")]
    Call(Call),
    #[json_subtypes(when_field = "result")]
    Success {
        jsonrpc: String,
        result: Value,
        id: Id,
    },
    #[json_subtypes(when_field = "error")]
    Failure {
        jsonrpc: String,
        error: ErrorObject,
        id: Option<Id>,
    },
    /// Not a JSON-RPC message at all: kept, so the server can answer it.
    #[json_subtypes(fallback)]
    Invalid(Unknown),
}

/// The batch example of the spec (section 7), one call per line.
const BATCH: &str = r#"[
  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
  {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
  {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
  {"foo": "boo"},
  {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
  {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
]"#;

/// The spec's answer to it.
const REPLIES: &str = r#"[
  {"jsonrpc": "2.0", "result": 7, "id": "1"},
  {"jsonrpc": "2.0", "result": 19, "id": "2"},
  {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
  {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
  {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
]"#;

fn failure(code: i64, message: &str, id: Option<Id>) -> Message {
    let error = ErrorObject {
        code,
        message: message.into(),
        data: None,
    };
    Message::Failure {
        jsonrpc: "2.0".into(),
        error,
        id,
    }
}

/// Answers one message, as a server would; notifications get no answer.
fn serve(message: &Message) -> Option<Message> {
    let request = match message {
        Message::Call(Call::Request(request)) => request,
        Message::Call(Call::Notification(_)) => return None,
        _ => return Some(failure(-32600, "Invalid Request", None)),
    };
    let id = Some(request.id.clone());
    let numbers = serde_json::from_value::<Vec<i64>>(request.params.clone().unwrap_or_default());
    let result = match (request.method.as_str(), numbers) {
        ("sum", Ok(n)) => json!(n.iter().sum::<i64>()),
        ("subtract", Ok(n)) if n.len() == 2 => json!(n[0] - n[1]),
        ("sum" | "subtract", _) => return Some(failure(-32602, "Invalid params", id)),
        ("get_data", _) => json!(["hello", 5]),
        _ => return Some(failure(-32601, "Method not found", id)),
    };
    let id = request.id.clone();
    Some(Message::Success {
        jsonrpc: "2.0".into(),
        result,
        id,
    })
}

fn kind(message: &Message) -> &'static str {
    match message {
        Message::Call(Call::Request(_)) => "request",
        Message::Call(Call::Notification(_)) => "notification",
        Message::Success { .. } => "success",
        Message::Failure { .. } => "error",
        Message::Invalid(_) => "invalid",
    }
}

/// The compact form of `text`, members in their original order.
fn compact(text: &str) -> Result<String, serde_json::Error> {
    serde_json::to_string(&serde_json::from_str::<Value>(text)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let batch: Vec<Message> = serde_json::from_str(BATCH)?;
    println!(
        "the spec's batch of {} messages and the answers:",
        batch.len()
    );
    let mut replies = Vec::new();
    for message in &batch {
        println!(
            "--> {:<12} {}",
            kind(message),
            serde_json::to_string(message)?
        );
        if let Some(reply) = serve(message) {
            println!(
                "<-- {:<12} {}",
                kind(&reply),
                serde_json::to_string(&reply)?
            );
            replies.push(reply);
        }
    }
    let kinds: Vec<_> = batch.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            "request",
            "notification",
            "request",
            "invalid",
            "request",
            "request"
        ]
    );
    assert!(matches!(&batch[0], Message::Call(Call::Request(r)) if r.id == Id::String("1".into())));
    assert!(matches!(&batch[5], Message::Call(Call::Request(r)) if r.params.is_none()));
    // Each message is written as it is, the invalid one included.
    assert_eq!(serde_json::to_string(&batch)?, compact(BATCH)?);

    // The answers are the spec's, byte for byte once compacted.
    let written = serde_json::to_string(&replies)?;
    println!("{} replies, {} bytes", replies.len(), written.len());
    assert_eq!(written, compact(REPLIES)?);

    // A client reads them back by the members present.
    let read: Vec<Message> = serde_json::from_str(REPLIES)?;
    assert_eq!(read, replies);
    assert!(matches!(&read[2], Message::Failure { id: None, error, .. } if error.code == -32600));

    // `result` and `error` together match two subtypes: an error, not a guess.
    let both = r#"{"jsonrpc": "2.0", "result": 1, "error": {"code": 1, "message": "?"}, "id": 3}"#;
    let err = match serde_json::from_str::<Message>(both) {
        Ok(message) => return Err(format!("read an ambiguous message as {message:?}").into()),
        Err(err) => err,
    };
    println!("result and error together: {err}");
    assert!(err
        .to_string()
        .starts_with("ambiguous subtype of Message: the fields match both Success and Failure"));
    Ok(())
}
