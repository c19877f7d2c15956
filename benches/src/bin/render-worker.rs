//! The render sandbox's worker for the benches and their tests (`vitrine_shared::sandbox`):
//! their harness binaries cannot be started as workers, as `vitrine-edge` and
//! `vitrine-control` can, so the bench stacks point `render_worker` here.

fn main() {
    if std::env::args_os().nth(1).as_deref() != Some(vitrine_shared::sandbox::WORKER_ARG.as_ref()) {
        eprintln!(
            "usage: vitrine-render-worker {} {{memory bytes}} {{cpu secs}}",
            vitrine_shared::sandbox::WORKER_ARG
        );
        std::process::exit(2);
    }
    vitrine_shared::sandbox::worker_main()
}
