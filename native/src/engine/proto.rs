//! The bot protocol's records (`kafana.v1`), generated from `proto/kafana/v1/bot.proto` by the build (`build.rs`:
//! prost's messages): the views and legal actions the core writes are these, so the proto is their one schema.

use std::sync::OnceLock;

use prost::Message;

/// The whole schema's messages, of which the core writes a few.
#[allow(dead_code, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/kafana.v1.rs"));
}

pub(crate) use generated::*;

/// The field number of `legal_actions` in `ActRequest`, read from the generated record: an ActRequest that holds
/// one empty legal action is that field's key and a zero length.
pub(crate) fn legal_actions_field() -> u32 {
    static FIELD: OnceLock<u32> = OnceLock::new();
    *FIELD.get_or_init(|| {
        let request = ActRequest { legal_actions: vec![LegalAction::default()], ..Default::default() };
        let (field, _) = prost::encoding::decode_key(&mut request.encode_to_vec().as_slice()).expect("a field's key");
        field
    })
}
