//! An id of one kind cannot be passed as another: code that hands a page's id to the store
//! where a project's is wanted, or a business library's block where one of the user's own
//! blocks is, does not compile (`tests/ids/*.rs`, each with the compiler's message it must
//! give beside it as `.stderr`). With bare `i64` ids it compiled, and loaded whichever project
//! had the page's number (deleted whichever of the user's blocks had the block's).
//!
//! trybuild compiles each case as its own crate against this one. Its cases only fail to
//! compile, so it runs `cargo check` (no code generated, nothing linked), and it builds in
//! `target/tests/trybuild`, where cargo keeps what it checked: the first run checks this
//! crate's dependencies once, later runs only the case itself. One case, one file: the run
//! stays short.

#[test]
fn an_id_of_one_kind_is_refused_where_another_is_wanted() {
    trybuild::TestCases::new().compile_fail("tests/ids/*.rs");
}
