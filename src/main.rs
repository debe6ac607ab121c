//! The `warcsift` binary: a thin shell over [`warcsift::cli`].

// mimalloc: every record allocates a handful of short-lived buffers (payload, decoded text,
// token arena, output line) on worker threads; mimalloc's thread-local free lists make those
// allocations markedly cheaper than glibc malloc and avoid cross-thread arena contention.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(warcsift::cli::main());
}
