//! The global block library and the templates belong to the platform: business administrators
//! write their own business's library only.
