// A page's id where the store wants a project's: refused by the compiler.
use vitrine_shared::{
    Store,
    ids::{PageId, ProjectId},
};

async fn project_of_page(store: &Store, page: PageId) {
    let _ = store.project_by_id(page).await;
}

fn wants_a_project(_: ProjectId) {}

fn main() {
    wants_a_project(PageId::new(7));
    let _ = project_of_page;
}
