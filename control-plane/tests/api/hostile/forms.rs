//! Form notifications go only to confirmed addresses (no open mail relay); form history is
//! capped per project.
