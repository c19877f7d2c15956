//! The render sandbox's worker for the workspace-level tests (`vitrine_shared::sandbox`).

fn main() {
    vitrine_shared::sandbox::worker_only_main("vitrine-system-render-worker")
}
