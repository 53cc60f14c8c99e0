#!/bin/sh
# Installs the Debian packages the tests need (apt-get, when run as root): the gRPC C++ toolchain and protoc the
# starter bots build with (bots/cpp, bots/go, bots/rust), Java 17 and Maven (bots/java), Chromium for the web UI's
# browser tests, bubblewrap and libseccomp for the bot sandbox; checks for Node.js with npm (bots/javascript), Go 1.26
# (bots/go, a module) and Rust's cargo with clippy (the native engine core, native/, and bots/rust; clippy is added with
# rustup when missing). Already installed: does nothing. Not root and something missing: says what to
# install and exits 1.
set -eu
PACKAGES="g++ make cmake pkg-config libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
openjdk-17-jdk-headless maven chromium bubblewrap libseccomp2"

missing=""
for package in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing Debian packages:$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        # shellcheck disable=SC2086
        apt-get install -y -q --no-install-recommends $missing >/dev/null
    else
        echo "the tests need these Debian packages; as root run:" >&2
        echo "  apt-get install --no-install-recommends$missing" >&2
        exit 1
    fi
fi
for tool in node npm; do
    command -v "$tool" >/dev/null || { echo "the JavaScript starter bot needs $tool (Node.js 18 or newer)" >&2; exit 1; }
done
/usr/local/go/bin/go version 2>/dev/null | grep -Eq "go1\.(2[6-9]|[3-9][0-9])" ||
    { echo "the Go starter bot (a Go module) needs Go 1.26 or newer in /usr/local/go (go.dev/dl)" >&2; exit 1; }
command -v cargo >/dev/null ||
    { echo "the native engine core (native/) and the Rust starter need Rust: cargo on PATH (rustup.rs)" >&2; exit 1; }
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >/dev/null 2>&1 ||
    { echo "the tests run clippy on the Rust code: rustup component add clippy" >&2; exit 1; }
