//! Tenant code (templates) renders within budgets in the editor, the preview and the
//! publisher; thumbnails cannot read the server's files.
