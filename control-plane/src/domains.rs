//! Custom domains: the domain a project may ask for ([`custom`]: checked the same way whether
//! it is saved with the project or proven at once), what a check found in the owner's language
//! ([`report`]), and the background job that checks pending domains again ([`checks`]).

pub mod checks;
pub mod custom;
pub mod report;
