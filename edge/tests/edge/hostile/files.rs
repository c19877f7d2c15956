//! User files are served only on their own project's hosts, and never as active content.
