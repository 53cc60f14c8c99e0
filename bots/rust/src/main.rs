//! The random bot: a uniformly random legal action, seeded by the decision, so that equal requests get equal
//! answers. Write your own decision in `choose`; the seat's view (`request.view`) and each action's detail are
//! described in `proto/kafana/v1/bot.proto`.

use random_rust::kit::{self, proto::ActRequest, proto::ActResponse};

/// Every game the referee knows.
const GAMES: &[&str] = &["durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"];

/// FNV-1a, 64 bits: a stable hash of the decision's key.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

fn choose(request: &ActRequest) -> ActResponse {
    let key = format!("{}/{}/{}/{}", request.match_id, request.game_number, request.seat, request.decision);
    let pick = fnv1a(&key) % request.legal_actions.len() as u64;
    ActResponse { action_id: request.legal_actions[pick as usize].id, ..Default::default() }
}

fn main() {
    let info = kit::Info {
        version: "1.0".to_owned(),
        author: "Kafana".to_owned(),
        action_detail: false, // reads only the ids
        ..kit::Info::new("random-rust", GAMES)
    };
    kit::serve(info, choose)
}
