//! The stable codes of the API's errors. Every refusal the control plane sends carries one
//! (`{"error": code, "message": …, "field"?: …, "params"?: {…}}`), the OpenAPI document lists
//! them all, and the dashboard shows each in the user's language from its i18next catalogue
//! (`errors.<code>`, filled in with `params`). `shared/testdata/error-codes.json` is this list
//! written out for the dashboard's test that every code has a translation in both catalogues;
//! a test here fails when the file and the enum disagree.
//!
//! The English `message` stays in every answer, for API clients and logs; the dashboard never
//! shows it when it knows the code.

use serde::{Serialize, Serializer};

/// Values that fill in a code's message (`{"max": 200}` for `too_long`).
pub type Params = serde_json::Map<String, serde_json::Value>;

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal ),* $(,)?) => {
        /// A stable error code; see the module's documentation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[ $(ErrorCode::$variant),* ];

            /// The code as it is sent (`snake_case`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $code, )*
                }
            }
        }
    };
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// In the OpenAPI document, a string enum of every code (component `ErrorCode`).
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some(ErrorCode::ALL.iter().map(|c| c.as_str())))
            .description(Some(
                "A stable error code; the dashboard shows `errors.<code>` from its catalogue.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for ErrorCode {}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

error_codes! {
    // The request itself.
    NotFound = "not_found",
    Unauthorized = "unauthorized",
    Internal = "internal",
    CrossOrigin = "cross_origin",
    NotJson = "not_json",
    MalformedJson = "malformed_json",
    /// A JSON body whose shape or types are wrong (serde's own words in `params.detail`).
    InvalidBody = "invalid_body",
    InvalidQuery = "invalid_query",
    BodyTooLarge = "too_large",
    NulCharacter = "nul_character",
    SignInRateLimited = "sign_in_rate_limited",
    ResetRateLimited = "reset_rate_limited",
    DatabaseRefused = "database_refused",
    DatabaseUnavailable = "database_unavailable",
    RendererBusy = "renderer_busy",
    /// The account's editor renders a minute (`CANVAS_RENDERS_PER_MINUTE`) are spent.
    RendersRateLimited = "renders_rate_limited",
    /// The account's outbound fetches a minute (`FETCHES_PER_ACCOUNT_PER_MINUTE`) are spent.
    FetchRateLimited = "fetch_rate_limited",
    ThumbnailsUnavailable = "thumbnails_unavailable",
    PageOutOfRange = "page_out_of_range",
    LimitOutOfRange = "limit_out_of_range",
    BadOrder = "bad_order",
    SearchTooLong = "search_too_long",
    // Who may do what.
    AdminOnly = "admin_only",
    BusinessAdminOnly = "business_admin_only",
    NotImpersonating = "not_impersonating",
    LibraryAdminOnly = "library_admin_only",
    GlobalLibraryAdminOnly = "global_library_admin_only",
    OtherAdminAccount = "other_admin_account",
    OwnAdminAccess = "own_admin_access",
    // Generic field rules.
    Required = "required",
    ProjectNameRequired = "project_name_required",
    BlockNameRequired = "block_name_required",
    TooLong = "too_long",
    TooLarge = "content_too_large",
    NotAFlag = "not_a_flag",
    TooManySelected = "too_many_selected",
    ProjectMismatch = "project_mismatch",
    MustBeObject = "must_be_object",
    MustBeList = "must_be_list",
    // Accounts and sessions.
    LoginFailed = "login_failed",
    EmailInvalid = "email_invalid",
    EmailTaken = "email_taken",
    PasswordTooShort = "password_too_short",
    PasswordTooLong = "password_too_long",
    ResetLinkInvalid = "reset_link_invalid",
    CurrentPasswordWrong = "current_password_wrong",
    PasswordChangeImpersonated = "password_change_impersonated",
    LanguageInvalid = "language_invalid",
    CurrencyInvalid = "currency_invalid",
    CurrencyLocked = "currency_locked",
    MonthInvalid = "month_invalid",
    DayInvalid = "day_invalid",
    PermissionsInvalid = "permissions_invalid",
    UnknownBusinessProject = "unknown_business_project",
    // Billing.
    PaymentsNotConfigured = "payments_not_configured",
    PaymentProviderUnreachable = "payment_provider_unreachable",
    PaymentProviderUnexpected = "payment_provider_unexpected",
    PaymentProviderError = "payment_provider_error",
    PaymentMethodRefused = "payment_method_refused",
    PaymentMethodInvalid = "payment_method_invalid",
    // Projects, slugs and domains.
    SlugInvalid = "slug_invalid",
    SlugTooLong = "slug_too_long",
    SlugEdges = "slug_edges",
    SlugReserved = "slug_reserved",
    SlugHeld = "slug_held",
    SlugTaken = "slug_taken",
    DomainInvalid = "domain_invalid",
    DomainInUse = "domain_in_use",
    // What a domain check found (`POST /api/dns-verify`, a pending domain's `last_result`).
    DnsVerified = "dns_verified",
    DnsVerifiedAddress = "dns_verified_address",
    DnsVerifiedAlias = "dns_verified_alias",
    DnsNotReady = "dns_not_ready",
    DnsUnreachable = "dns_unreachable",
    DnsTxtProven = "dns_txt_proven",
    DnsTxtMissing = "dns_txt_missing",
    DnsTxtWrong = "dns_txt_wrong",
    DnsPointsAddress = "dns_points_address",
    DnsPointsAlias = "dns_points_alias",
    DnsPointsElsewhere = "dns_points_elsewhere",
    DnsNoRecords = "dns_no_records",
    DnsSetTxt = "dns_set_txt",
    DnsSetPointing = "dns_set_pointing",
    DnsProxyOff = "dns_proxy_off",
    DnsPending = "dns_pending",
    DnsHeld = "dns_held",
    FontFamilyInvalid = "font_family_invalid",
    FontVariantInvalid = "font_variant_invalid",
    TooManyFonts = "too_many_fonts",
    FontWeightInvalid = "font_weight_invalid",
    WoffOnly = "woff_only",
    NotAnUpload = "not_an_upload",
    CodeTooLarge = "code_too_large",
    PixelIdDigits = "pixel_id_digits",
    PixelIdRequired = "pixel_id_required",
    AccessTokenRequired = "access_token_required",
    RobotsTooLarge = "robots_too_large",
    RobotsInvalid = "robots_invalid",
    FormOrderInvalid = "form_order_invalid",
    /// The thank-you page is not a static page of the project.
    ThankYouPageInvalid = "thank_you_page_invalid",
    /// A form history date filter that is neither a date nor an RFC 3339 instant.
    DateInvalid = "date_invalid",
    /// The analytics report's `from` or `to` is not a YYYY-MM-DD date.
    AnalyticsDateInvalid = "analytics_date_invalid",
    /// The analytics report's `from` is after its `to`.
    AnalyticsRangeInvalid = "analytics_range_invalid",
    /// The analytics report's range is longer than two years.
    AnalyticsRangeTooLong = "analytics_range_too_long",
    FormEmailLinkInvalid = "form_email_link_invalid",
    FormEmailResendLimit = "form_email_resend_limit",
    FormEmailTooSoon = "form_email_too_soon",
    FormEmailDailyLimit = "form_email_daily_limit",
    /// A sign-in address confirmation link that is wrong, replaced or expired.
    EmailLinkInvalid = "email_link_invalid",
    /// The sign-in address was sent every confirmation e-mail it can get.
    EmailResendLimit = "email_resend_limit",
    /// A sign-in address confirmation e-mail was sent moments ago.
    EmailTooSoon = "email_too_soon",
    /// A client-panel token in the query string, where the `X-Client-Token` header must carry it.
    TokenInQuery = "token_in_query",
    // Pages and publishing.
    HomeSlugFixed = "home_slug_fixed",
    HomePageKept = "home_page_kept",
    HomePageStatic = "home_page_static",
    PageSlugTaken = "page_slug_taken",
    PageTooLarge = "page_too_large",
    /// A redirect added to a project that has `redirects::MAX_RULES` already.
    TooManyRedirects = "too_many_redirects",
    /// A publish whose manifest (pages, redirects, templates) is over
    /// `manifest::MAX_MANIFEST_BYTES`.
    SiteTooLarge = "site_too_large",
    /// A build that stopped half-way (its process ended) and was marked failed at start-up.
    BuildInterrupted = "build_interrupted",
    UnknownCollection = "unknown_collection",
    ReservedPagePath = "reserved_page_path",
    TemplateError = "template_error",
    /// A block's own template that does not compile (no block named yet: it is being saved).
    TemplateInvalid = "template_invalid",
    RenderBudget = "render_budget_exceeded",
    ExternalListUnreadable = "external_list_unreadable",
    /// A publish warning: a web font the provider could not deliver.
    FontUnavailable = "font_unavailable",
    DeployNotFinished = "deploy_not_finished",
    /// Making a block a shared section: the page has no block with that uid.
    BlockNotOnPage = "block_not_on_page",
    // Collections, fields and records.
    CollectionSettingsInvalid = "collection_settings_invalid",
    CollectionOrderInvalid = "collection_order_invalid",
    CollectionSlugTaken = "collection_slug_taken",
    /// Another collection of the project has this name (names compare ignoring case).
    CollectionNameTaken = "collection_name_taken",
    FieldSlugTaken = "field_slug_taken",
    RecordSlugTaken = "record_slug_taken",
    FieldTypeUnknown = "field_type_unknown",
    OptionsInvalid = "options_invalid",
    OptionNameRequired = "option_name_required",
    OptionRepeated = "option_repeated",
    OptionsEmpty = "options_empty",
    FieldSettingsInvalid = "field_settings_invalid",
    RelationRequired = "relation_required",
    CurrencyFormatUnknown = "currency_format_unknown",
    CurrencySymbolInvalid = "currency_symbol_invalid",
    FieldUnknown = "field_unknown",
    FieldRepeated = "field_repeated",
    FieldsEmpty = "fields_empty",
    TitleRequired = "title_required",
    FieldsRequired = "fields_required",
    RecordSlugRepeated = "record_slug_repeated",
    RelationNotFound = "relation_not_found",
    ValueNotText = "value_not_text",
    ValueNotLink = "value_not_link",
    ValueNotFiles = "value_not_files",
    ValueFileSrc = "value_file_src",
    ValueNotOption = "value_not_option",
    ValueNotOptions = "value_not_options",
    ValueTooLong = "value_too_long",
    ValueRichTooLong = "value_rich_too_long",
    ValueNotFlag = "value_not_flag",
    ValueNotCents = "value_not_cents",
    ValueNotAmount = "value_not_amount",
    /// A file's amount that is not written as amounts are ("12.5x"); params: value, example.
    ValueAmountUnreadable = "value_amount_unreadable",
    /// A file's amount with more than two decimal places ("59,999"); params: value.
    ValueAmountDecimals = "value_amount_decimals",
    /// A file's amount beyond 13 digits of whole units; params: value.
    ValueAmountTooLarge = "value_amount_too_large",
    ValueNotEmail = "value_not_email",
    ValueNotRecord = "value_not_record",
    TooManyRows = "too_many_rows",
    TableRefInvalid = "table_ref_invalid",
    ImportFormat = "import_format",
    ImportEmpty = "import_empty",
    ImportNotList = "import_not_list",
    ImportNotUtf8 = "import_not_utf8",
    ImportNul = "import_nul",
    ImportColumnTwice = "import_column_twice",
    ImportColumnUnknown = "import_column_unknown",
    ImportCsvMalformed = "import_csv_malformed",
    ImportJsonMalformed = "import_json_malformed",
    ImportRowNotObject = "import_row_not_object",
    ImportDateInvalid = "import_date_invalid",
    // Uploads.
    UploadPrefixInvalid = "upload_prefix_invalid",
    FileTooLarge = "file_too_large",
    DataUrlInvalid = "data_url_invalid",
    Base64Invalid = "base64_invalid",
    FileEmpty = "file_empty",
    FileTypeRefused = "file_type_refused",
    ImagesOnly = "images_only",
    AcceptInvalid = "accept_invalid",
    FileNameRequired = "file_name_required",
    FileTypeMismatch = "file_type_mismatch",
    /// An upload that would take its account past `STORAGE_QUOTA_BYTES`.
    StorageQuotaBytes = "storage_quota_bytes",
    /// An upload that would take its account past `STORAGE_QUOTA_OBJECTS` files.
    StorageQuotaObjects = "storage_quota_objects",
    /// A photo with more pixels than the photo budget (`photos::MAX_PIXELS`), or too costly to
    /// make within the photo worker's memory and CPU: a decompression bomb is one.
    ImageTooLarge = "image_too_large",
    /// A JPEG, PNG or WebP the decoders cannot read (damaged or not what it claims).
    ImageUnreadable = "image_unreadable",
    /// More than `UPLOADS_PER_MINUTE` uploads from one account in a minute.
    UploadRateLimited = "upload_rate_limited",
    /// An import while the account already runs as many as it may at once.
    ImportsRunning = "imports_running",
    /// A record, import or copied project that would take its account past
    /// `RECORDS_PER_ACCOUNT`.
    TooManyRecords = "too_many_records",
    ImageUrlInvalid = "image_url_invalid",
    // Redirects (the spec's own Portuguese messages).
    RedirectFromRequired = "redirect_from_required",
    RedirectToRequired = "redirect_to_required",
    RedirectNoSpaces = "redirect_no_spaces",
    RedirectBadChar = "redirect_bad_char",
    RedirectTooLong = "redirect_too_long",
    RedirectFromStar = "redirect_from_star",
    RedirectToInvalid = "redirect_to_invalid",
    RedirectToStar = "redirect_to_star",
    RedirectSame = "redirect_same",
    RedirectFromTaken = "redirect_from_taken",
    RedirectProjectFixed = "redirect_project_fixed",
    /// A warning: the saved redirect sends the visitors of a page elsewhere.
    RedirectHidesPage = "redirect_hides_page",
    /// A warning: the saved redirect hides several pages (`count`).
    RedirectHidesPages = "redirect_hides_pages",
    /// A warning: the saved page answers at an address one of the project's redirects takes.
    PageUnderRedirect = "page_under_redirect",
    // Blocks, categories, templates.
    BlockNameTaken = "block_name_taken",
    CategoryNotEmpty = "category_not_empty",
    CategoryUnknown = "category_unknown",
    CategoryNameRequired = "category_name_required",
    LibraryFull = "library_full",
    BlockHtmlEmpty = "block_html_empty",
    XVarsInvalid = "x_vars_invalid",
    JsonInvalid = "json_invalid",
    TooManyBlocks = "too_many_blocks",
    BlockUnreadable = "block_unreadable",
    FetchFailed = "fetch_failed",
    FetchRefused = "fetch_refused",
    FetchNotJson = "fetch_not_json",
    FetchNotList = "fetch_not_list",
    SizeInvalid = "size_invalid",
    OrderOutOfRange = "order_out_of_range",
    TemplateNameTaken = "template_name_taken",
    // The site's identity and theme (`crate::identity`, `crate::theme`).
    IdentityNameRequired = "identity_name_required",
    IdentityWhatsappInvalid = "identity_whatsapp_invalid",
    IdentityPhoneInvalid = "identity_phone_invalid",
    IdentityLinkInvalid = "identity_link_invalid",
    ThemeColourInvalid = "theme_colour_invalid",
    ThemeFontUnknown = "theme_font_unknown",
    // Anything else.
    Conflict = "conflict",
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The file the dashboard's catalogue test reads: rewrite it with
    /// `VITRINE_WRITE_ERROR_CODES=1 cargo test -p vitrine-shared error_codes_file`.
    #[test]
    fn error_codes_file_lists_every_code() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/error-codes.json");
        let codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        let expected = serde_json::to_string_pretty(&codes).unwrap() + "\n";
        if std::env::var_os("VITRINE_WRITE_ERROR_CODES").is_some() {
            std::fs::write(path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(
            actual, expected,
            "testdata/error-codes.json is stale: run VITRINE_WRITE_ERROR_CODES=1 cargo test -p vitrine-shared error_codes_file"
        );
    }

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = HashSet::new();
        for code in ErrorCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                !s.is_empty()
                    && s.starts_with(|c: char| c.is_ascii_lowercase())
                    && s.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{s} is not snake_case"
            );
            assert_eq!(serde_json::to_value(code).unwrap(), s);
        }
    }
}
