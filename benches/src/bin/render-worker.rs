//! The render sandbox's worker for the benches (`vitrine_shared::sandbox`): their harness
//! binaries cannot be started as workers, as `vitrine-edge` and `vitrine-control` can, so the
//! bench stacks point `render_worker` here.

fn main() {
    vitrine_shared::sandbox::worker_only_main("vitrine-render-worker")
}
