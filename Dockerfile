# The bosweep command-line executable in a small Debian image, for the guide's Kubernetes
# Indexed Job (or any container runtime):
#
#   docker build -t bosweep .
#   docker run --rm bosweep --device cpu sweep sweeps/quick.toml --out /tmp/quick
#
# The runtime image carries Mesa's Vulkan drivers and loader: with a GPU passed through (on NVIDIA,
# the container toolkit adds its Vulkan driver when the `graphics` capability is asked for, below)
# the GPU backend runs on it; without one, `--device auto` uses the CPU. The example configs are in
# /opt/bosweep/sweeps, the working directory, so `sweeps/quick.toml` resolves there. There is no
# Python in the image: configs whose `cmd` runs python3 (sweeps/examples) need an image built on
# this one.

FROM rust:1-bookworm AS build
WORKDIR /src
# The workspace's manifests and lock file, then the sources the CLI's crates compile in: shaders/
# (included by the engine), the crates (every member's manifest is read, the Python one too,
# though `-p bosweep` builds only the CLI and the crates it needs) and the root package's targets
# (its [[bench]] must exist for the manifest to load; tests and examples are not built).
COPY Cargo.toml Cargo.lock ./
COPY shaders shaders
COPY crates crates
COPY src src
COPY benches/engine.rs benches/engine.rs
# The release profile keeps debug info for profiling (Cargo.toml); the image keeps only symbols,
# enough to name functions in a backtrace, at a fraction of the size.
RUN cargo build --release --locked -p bosweep \
    && strip --strip-debug target/release/bosweep \
    && cp target/release/bosweep /usr/local/bin/bosweep

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends mesa-vulkan-drivers libvulkan1 ca-certificates \
    && rm -rf /var/lib/apt/lists/*
# Vulkan is in the NVIDIA container toolkit's graphics capability, not in its default compute one.
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility,graphics
COPY --from=build /usr/local/bin/bosweep /usr/local/bin/bosweep
COPY sweeps /opt/bosweep/sweeps
WORKDIR /opt/bosweep
ENTRYPOINT ["bosweep"]
CMD ["--help"]
