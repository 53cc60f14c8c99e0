//! Generates the Rust records of the bot protocol (`proto/kafana/v1/bot.proto`, the one schema) at build time:
//! prost's messages, read from the proto by protox (a protobuf compiler in Rust, so no protoc is needed).
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proto").canonicalize()?;
    println!("cargo:rerun-if-changed={}", root.join("kafana/v1/bot.proto").display());
    let descriptors = protox::compile(["kafana/v1/bot.proto"], [&root])?;
    prost_build::Config::new().compile_fds(descriptors)?;
    Ok(())
}
