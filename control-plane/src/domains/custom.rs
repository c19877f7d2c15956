//! The custom domain a project may ask for (spec 1 §4 "Domain"), checked the same way
//! whether it is saved with the project or proven at once (`POST /api/dns-verify`): a valid
//! name, never one under the platform's own domain, and not one another project holds (a
//! name and its `www.` twin are one unit).

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    domain::{DOMAIN_MESSAGE, DomainName, Invalid},
    store::{DOMAIN_UNIT_TAKEN, StoreError},
};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// The domain `project_id` asks for: valid, not the platform's, and held by no other project
/// (422 or 409 otherwise).
pub async fn domain_for(core: &Core, project_id: ProjectId, raw: &str) -> Result<DomainName> {
    let domain = parse_domain(core, raw)?;
    refuse_if_held_elsewhere(core, domain.as_str(), project_id).await?;
    Ok(domain)
}

/// Parses a requested domain: validated, and never the platform's own.
fn parse_domain(core: &Core, raw: &str) -> Result<DomainName, Invalid> {
    let domain = DomainName::from_input(raw)?;
    if domain.is_within(&core.settings.platform_domain()) {
        return Err(Invalid::new(
            "domain",
            ErrorCode::DomainInvalid,
            DOMAIN_MESSAGE,
        ));
    }
    Ok(domain)
}

/// 409 `domain_in_use` when a project other than `project_id` holds `domain` or its twin.
async fn refuse_if_held_elsewhere(core: &Core, domain: &str, project_id: ProjectId) -> Result<()> {
    match core.store.domain_holder(domain).await? {
        Some(holder) if holder != project_id => {
            Err(ApiError::from(StoreError::Conflict(DOMAIN_UNIT_TAKEN)))
        }
        _ => Ok(()),
    }
}
