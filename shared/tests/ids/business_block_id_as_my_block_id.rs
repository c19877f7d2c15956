// A block of a business's library where the store wants one of a user's own blocks: refused by
// the compiler.
use vitrine_shared::{
    Store,
    ids::{AccountId, BusinessBlockId},
};

async fn delete_from_my_blocks(store: &Store, user: AccountId, block: BusinessBlockId) {
    let _ = store.delete_my_block(user, block).await;
}

fn main() {
    let _ = delete_from_my_blocks;
}
