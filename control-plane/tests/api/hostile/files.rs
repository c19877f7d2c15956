//! Uploaded files on the dashboard's origin are never active content.
