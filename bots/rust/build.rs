//! Generates the Rust code of the protocol (proto/kafana/v1/bot.proto) at build time: the messages (prost) and the
//! `Bot` service's server side (tonic). Needs protoc (Debian: protobuf-compiler) or the PROTOC variable.
fn main() -> std::io::Result<()> {
    tonic_prost_build::configure()
        .build_client(false)
        .compile_protos(&["proto/kafana/v1/bot.proto"], &["proto"])
}
