//! The OpenAPI document of the whole API, built from every function crate's
//! annotated routes ([`document`]), and served as the file it is written to
//! (`openapi.json`, [`OPENAPI_JSON`]): the Lambda then links no function
//! crate (its zip was 8.8 MB, over the 8 MB zip goal), and the test
//! `tests/suite/openapi_file.rs` fails when the file is not exactly what the
//! code documents, so it cannot fall behind the code.

use axum::http::header;
use axum::response::IntoResponse;
use shared::api::AppState;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

pub mod page;
pub mod patterns;

#[derive(OpenApi)]
#[openapi(
    info(title = "Legal services platform API", version = "1.0.0",
         description = "Every path follows the product specification's endpoint catalogue under /api/. Errors answer {status, message (a stable key), errors (per-field keys)}."),
    modifiers(&Bearer),
    // Named only by query parameters, which utoipa does not collect.
    components(schemas(shared::domain::case::ListOrder))
)]
struct ApiDoc;

struct Bearer;
impl utoipa::Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
        for (name, _, description) in SHARED_RESPONSES {
            components.responses.insert((*name).to_string(), error_response(description));
        }
        for (_, _, scheme, header, description) in SIGNED {
            components
                .add_security_scheme(*scheme, SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(*header, *description))));
        }
    }
}

/// The answers every route can give, from the limits and retries every
/// router shares (`shared::api::limits`): (component name, status, why).
pub const SHARED_RESPONSES: &[(&str, &str, &str)] = &[
    ("UriTooLong", "414", "The query string is over the API's limit (uri_too_long)"),
    ("ServiceUnavailable", "503", "A dependency stayed unavailable after retries (service_unavailable)"),
    ("RequestTimedOut", "504", "The request did not finish within its deadline (request_timed_out)"),
];

/// The operations a provider calls, authenticated by a signature header
/// instead of a user's bearer token: (method, path, scheme, header, how).
pub const SIGNED: &[(&str, &str, &str, &str, &str)] = &[(
    "post",
    "/api/verified/callback/",
    "verified_signature",
    "x-verified-signature",
    "The signing provider's HMAC: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\"> with the shared secret; a stale timestamp is refused",
)];

/// Every function crate's routes. Add a new crate here and in the gateway.
pub fn all_routes() -> Vec<OpenApiRouter<AppState>> {
    vec![
        identity::api(),
        users::api(),
        customers::api(),
        people::api(),
        catalogue::api(),
        subscriptions::api(),
        cases::api(),
        collaboration::api(),
        statistics::api(),
        content::api(),
        addons::api(),
        conflict_search::api(),
        api(),
    ]
}

pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    // utoipa fills the license from Cargo's `license` field, which the
    // workspace does not set (it has no licence file): no License line.
    doc.info.license = None;
    for part in all_routes() {
        doc.merge(part.split_for_parts().1);
    }
    tighten(&mut doc);
    use utoipa::openapi::{schema::Schema, RefOr};
    if let Some(components) = doc.components.as_mut() {
        for schema in components.schemas.values_mut() {
            no_default_where_required(schema);
        }
        if let Some(plan) = components.schemas.get_mut("NewServicePlan") {
            per_service(plan);
        }
        if let Some(addition) = components.schemas.get_mut("AddToCustomer") {
            one_addition(addition);
        }
        for (schema, field, value) in ONE_VALUE {
            let Some(RefOr::T(Schema::Object(o))) = components.schemas.get_mut(*schema) else { panic!("no object schema {schema}") };
            let Some(RefOr::T(Schema::Object(p))) = o.properties.get_mut(*field) else { panic!("no property {schema}.{field}") };
            p.enum_values = Some(vec![serde_json::Value::Bool(*value)]);
        }
        patterns::apply(components);
        // A claim's status: the values the server records (a text in Rust).
        let Some(RefOr::T(Schema::Object(claim))) = components.schemas.get_mut("Claim") else { panic!("no object schema Claim") };
        let Some(RefOr::T(Schema::Object(status))) = claim.properties.get_mut("status") else { panic!("no property Claim.status") };
        status.enum_values = Some(shared::domain::inkasso::CLAIM_STATUSES.iter().map(|s| serde_json::json!(s)).collect());
        // Last: it wraps the forms in `allOf`, past the property edits above.
        for name in ["Registration", "CustomerForm"] {
            let Some(form) = components.schemas.get_mut(name) else { panic!("no schema {name}") };
            per_customer_type(form);
        }
        let Some(account) = components.schemas.get_mut("InkassoAccount") else { panic!("no schema InkassoAccount") };
        inkasso_account(account);
        let Some(recipient) = components.schemas.get_mut("Recipient") else { panic!("no schema Recipient") };
        signing_recipient(recipient);
        let Some(decision) = components.schemas.get_mut("ApplicationDecision") else { panic!("no schema ApplicationDecision") };
        decision_by_state(decision);
        let Some(hours) = components.schemas.get_mut("HourForm") else { panic!("no schema HourForm") };
        some_hours(hours);
        let Some(decision) = components.schemas.get_mut("Decision") else { panic!("no schema Decision") };
        refusal_with_reason(decision);
        case_address_form(components);
    }
    patterns::apply_query(&mut doc.paths);
    notification_offset(&mut doc.paths);
    doc
}

/// The notification list's `offset`: at most the store's
/// (`shared::services::notifications::OFFSET_MAX`, else 400 on `offset`).
fn notification_offset(paths: &mut utoipa::openapi::path::Paths) {
    use utoipa::openapi::{schema::Schema, RefOr};
    let Some(op) = paths.paths.get_mut("/api/notification/").and_then(|item| item.get.as_mut()) else {
        panic!("no get /api/notification/")
    };
    let Some(p) = op.parameters.iter_mut().flatten().find(|p| p.name == "offset") else { panic!("no offset of /api/notification/") };
    let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { panic!("/api/notification/ offset: not an object schema") };
    o.maximum = Some((shared::services::notifications::OFFSET_MAX as f64).into());
}

/// A field a body requires has no default: serde's `#[serde(default)]`
/// (which lets the server name a missing field itself) would otherwise
/// document `""` beside `minLength: 1`.
///
/// Nor is it `null`: the server reads a required field sent as `null` as
/// missing (`required`), so a required `Option` is documented as its value.
fn no_default_where_required(schema: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{Schema, SchemaType, Type};
    use utoipa::openapi::RefOr;
    match schema {
        RefOr::T(Schema::Object(o)) => {
            for name in o.required.clone() {
                let Some(property) = o.properties.get_mut(&name) else { continue };
                if let RefOr::T(Schema::OneOf(one)) = property {
                    let null =
                        |s: &RefOr<Schema>| matches!(s, RefOr::T(Schema::Object(n)) if n.schema_type == SchemaType::Type(Type::Null));
                    if one.items.len() == 2 && one.items.iter().any(null) {
                        let value = one.items.iter().find(|s| !null(s)).cloned().expect("a non-null branch");
                        *property = value;
                    }
                }
                if let RefOr::T(Schema::Object(p)) = property {
                    p.default = None;
                    if let SchemaType::Array(types) = &p.schema_type {
                        let kept: Vec<Type> = types.iter().filter(|t| **t != Type::Null).cloned().collect();
                        if kept.len() == 1 {
                            p.schema_type = SchemaType::Type(kept[0].clone());
                        }
                    }
                }
            }
        }
        RefOr::T(Schema::AllOf(all)) => all.items.iter_mut().for_each(no_default_where_required),
        _ => {}
    }
}

/// A service plan's use limit or hours, required per service: hours for
/// the hour-based service, a limit for every other (the catalogue's own
/// list, [`shared::domain::catalogue::SERVICES`]), as `oneOf` branches on
/// `service_id`.
fn per_service(plan: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use shared::domain::catalogue::SERVICES;
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    use utoipa::openapi::RefOr;
    // The other service's field is read (a number) but not bounded.
    let RefOr::T(Schema::Object(o)) = plan else { panic!("NewServicePlan is not an object schema") };
    for (field, min) in [("limit", 0.0), ("hours", 0.0)] {
        if let Some(RefOr::T(Schema::Object(p))) = o.properties.get_mut(field) {
            p.minimum = Some(min.into());
            p.maximum = None;
        }
    }
    let branch = |hour_based: bool, field: &str, own: ObjectBuilder| {
        let ids = SERVICES.iter().filter(|s| s.hour_based == hour_based).map(|s| s.id);
        ObjectBuilder::new()
            .property("service_id", ObjectBuilder::new().schema_type(Type::Integer).enum_values(Some(ids)))
            .property(field, own)
            .required("service_id")
            .required(field)
            .build()
    };
    let hours = ObjectBuilder::new().schema_type(Type::Number).minimum(Some(0.01)).maximum(Some(10000));
    let limit = ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1));
    let choice = OneOfBuilder::new().item(branch(true, "hours", hours)).item(branch(false, "limit", limit)).build();
    let whole = std::mem::replace(plan, Schema::Object(Default::default()).into());
    *plan = Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::OneOf(choice)).build()).into();
}

/// What staff add to a customer, exactly one of three
/// (`AddToCustomer::checked`, else `choose_package_or_plan`): a catalogue
/// package, a catalogue service plan, or a custom package with its hours,
/// price and days. The others are left out or `null` (`custom` false).
fn one_addition(addition: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    let absent = || ObjectBuilder::new().schema_type(Type::Null);
    let not_custom = || ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([false]));
    let id = || ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0));
    let package = ObjectBuilder::new()
        .property("package_id", id())
        .property("service_plan_id", absent())
        .property("custom", not_custom())
        .required("package_id")
        .build();
    let plan = ObjectBuilder::new()
        .property("service_plan_id", id())
        .property("package_id", absent())
        .property("custom", not_custom())
        .required("service_plan_id")
        .build();
    let custom = ObjectBuilder::new()
        .property("custom", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])))
        .property("package_id", absent())
        .property("service_plan_id", absent())
        .required("custom")
        .required("hours")
        .required("price")
        .required("duration_days")
        .build();
    let choice = OneOfBuilder::new().item(package).item(plan).item(custom).build();
    let whole = std::mem::replace(addition, Schema::Object(Default::default()).into());
    *addition = Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::OneOf(choice)).build()).into();
}

/// Booleans a body must send with one value: the registration's consents
/// true (else `terms_not_agreed` / `privacy_not_agreed`), a notification's
/// `unread` false (it is only marked read).
pub const ONE_VALUE: &[(&str, &str, bool)] =
    &[("Registration", "terms_accepted", true), ("Registration", "privacy_accepted", true), ("ReadRequest", "unread", false)];

/// What a customer form (registration, staff's create and update) requires
/// by its other fields, as `shared::domain::customer` checks them: a
/// company its name, registration number `XXXXXX-XXXX` and sector; an
/// invoice address unless `same_invoice_address` is true.
fn per_customer_type(form: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type};
    use utoipa::openapi::RefOr;
    let kind = |name: &str| ObjectBuilder::new().schema_type(Type::String).enum_values(Some([name]));
    let text = |pattern: &str| ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern));
    let individual = ObjectBuilder::new().property("customer_type", kind("Individual")).required("customer_type").build();
    let company = ObjectBuilder::new()
        .property("customer_type", kind("Company"))
        .property("company_name", text(r"\S"))
        .property("company_registration_number", text(r"^[0-9]{6}-[0-9]{4}$"))
        .property("sector", text(r"^[0-9]+$"))
        .required("customer_type")
        .required("company_name")
        .required("company_registration_number")
        .required("sector")
        .build();
    let same = ObjectBuilder::new()
        .property("same_invoice_address", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])))
        .required("same_invoice_address")
        .build();
    // The invoice address is read only when it is not the visiting one.
    let RefOr::T(Schema::Object(o)) = &mut *form else { panic!("a customer form is not an object schema") };
    let address = o.properties.insert(
        "invoice_address".into(),
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .description(Some("Required (an address) unless `same_invoice_address`."))
            .into(),
    );
    let invoice =
        ObjectBuilder::new().property("invoice_address", address.expect("an invoice address")).required("invoice_address").build();
    let whole = std::mem::replace(form, Schema::Object(Default::default()).into());
    *form = Schema::AllOf(
        AllOfBuilder::new()
            .item(whole)
            .item(Schema::OneOf(OneOfBuilder::new().item(individual).item(company).build()))
            .item(Schema::AnyOf(AnyOfBuilder::new().item(same).item(invoice).build()))
            .build(),
    )
    .into();
}

/// An Inkasso account as `shared::domain::addons::validate_inkasso` reads
/// it: the approved address an IPv4 or IPv6 address as written, and IBAN
/// and BIC given together or not at all.
fn inkasso_account(account: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type};
    use utoipa::openapi::RefOr;
    let RefOr::T(Schema::Object(o)) = account else { panic!("InkassoAccount is not an object schema") };
    let ip = |f: KnownFormat| ObjectBuilder::new().schema_type(Type::String).format(Some(SchemaFormat::KnownFormat(f)));
    o.properties.insert(
        "approved_ip".into(),
        Schema::OneOf(
            OneOfBuilder::new()
                .item(ip(KnownFormat::Ipv4))
                .item(ip(KnownFormat::Ipv6))
                .description(Some("The address the collection agency's portal is used from: IPv4 or IPv6, as written."))
                .build(),
        )
        .into(),
    );
    let text = |pattern: &str| ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern));
    let neither = ObjectBuilder::new().property("iban", text(r"^\s*$")).property("bic", text(r"^\s*$")).build();
    let both = ObjectBuilder::new().property("iban", text(r"\S")).property("bic", text(r"\S")).required("iban").required("bic").build();
    let whole = std::mem::replace(account, Schema::Object(Default::default()).into());
    *account =
        Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::AnyOf(AnyOfBuilder::new().item(neither).item(both).build())).build())
            .into();
}

/// A signing recipient as `shared::domain::addons::validate_envelope`
/// checks it: a name, an e-mail address, a locale and a role it knows; a
/// signer's sign method one it knows; a phone number when notified by SMS.
/// (Each address once per envelope is a rule across the list: the fuzz's
/// refusals list it.)
fn signing_recipient(recipient: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use shared::domain::addons::{LOCALES, ROLES, SIGN_METHODS};
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    use utoipa::openapi::RefOr;
    let RefOr::T(Schema::Object(o)) = recipient else { panic!("Recipient is not an object schema") };
    let one_of = |values: &[&str]| ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values.to_vec()));
    o.properties.insert("name".into(), ObjectBuilder::new().schema_type(Type::String).pattern(Some(patterns::NOT_BLANK)).into());
    o.properties.insert("locale".into(), one_of(&LOCALES).description(Some("nb (Norwegian), sv, en, da, fi.")).into());
    o.properties.insert("role".into(), one_of(&ROLES).into());
    for field in ["name", "email", "locale", "role"] {
        o.required.push(field.into());
    }
    let signer = ObjectBuilder::new()
        .property("role", one_of(&["signer"]))
        .property("sign_method", one_of(&SIGN_METHODS))
        .required("sign_method")
        .build();
    let other = ObjectBuilder::new().property("role", one_of(&ROLES[1..])).build();
    let no_sms =
        ObjectBuilder::new().property("notify_sms", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([false]))).build();
    let phone = ObjectBuilder::new()
        .property("phone", ObjectBuilder::new().schema_type(Type::String).pattern(Some("[0-9+-]")))
        .required("phone")
        .build();
    let whole = std::mem::replace(recipient, Schema::Object(Default::default()).into());
    *recipient = Schema::AllOf(
        AllOfBuilder::new()
            .item(whole)
            .item(Schema::OneOf(OneOfBuilder::new().item(signer).item(other).build()))
            .item(Schema::AnyOf(AnyOfBuilder::new().item(no_sms).item(phone).build()))
            .build(),
    )
    .into();
}

/// The agency's answer as `shared::services::inkasso::decide` reads it:
/// an approval names the company's customer number at the agency (some
/// character but whitespace: [`patterns::agency_reference`]), a rejection needs none.
fn decision_by_state(decision: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    let state = |value: &str| ObjectBuilder::new().schema_type(Type::String).enum_values(Some([value]));
    let approved = ObjectBuilder::new()
        .property("state", state("approved"))
        .property("creditor_id", ObjectBuilder::new().schema_type(Type::String).pattern(Some(patterns::agency_reference(true))))
        .required("state")
        .required("creditor_id")
        .build();
    let rejected = ObjectBuilder::new().property("state", state("rejected")).required("state").build();
    let choice = OneOfBuilder::new().item(approved).item(rejected).build();
    let whole = std::mem::replace(decision, Schema::Object(Default::default()).into());
    *decision = Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::OneOf(choice)).build()).into();
}

/// An hour entry as `shared::domain::case::validate_hours` reads it: of
/// billable, non-billable and rättsskydd hours at least one is 0.01 or
/// more (`hour_min`), as `anyOf` branches.
fn some_hours(form: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, Schema, Type};
    let branch = |field: &str| {
        ObjectBuilder::new().property(field, ObjectBuilder::new().schema_type(Type::Number).minimum(Some(0.01))).required(field).build()
    };
    let some = AnyOfBuilder::new().item(branch("hour")).item(branch("non_billable_hour")).item(branch("rattsskydd_hour")).build();
    let whole = std::mem::replace(form, Schema::Object(Default::default()).into());
    *form = Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::AnyOf(some)).build()).into();
}

/// An erasure decision as `shared::services::erasure::decide` reads it: a
/// refusal (`approve` false) gives its reason, some visible text
/// (`shared::domain::data_rights::refusal_reason`); an approval needs none.
fn refusal_with_reason(decision: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    let approve = |value: bool| ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([value]));
    let approved = ObjectBuilder::new().property("approve", approve(true)).required("approve").build();
    let refused = ObjectBuilder::new()
        .property("approve", approve(false))
        .property("reason", ObjectBuilder::new().schema_type(Type::String).min_length(Some(1)).pattern(Some(patterns::visible())))
        .required("approve")
        .required("reason")
        .build();
    let choice = OneOfBuilder::new().item(approved).item(refused).build();
    let whole = std::mem::replace(decision, Schema::Object(Default::default()).into());
    *decision = Schema::AllOf(AllOfBuilder::new().item(whole).item(Schema::OneOf(choice)).build()).into();
}

/// A case form's address as `shared::domain::case::form::validate` reads
/// it, a schema of its own (`CaseAddressForm`; `CaseAddress`, what the
/// answers hold, keeps older cases' country names): the country a code
/// ([`shared::domain::country::ISO_3166_ALPHA2`], any letter case), none
/// being Sweden; a Swedish post code five digits, another country's up to
/// ten letters, digits, spaces or dashes; either may be left empty.
fn case_address_form(components: &mut utoipa::openapi::Components) {
    use shared::domain::country::{ISO_3166_ALPHA2, NAMES, SWEDEN};
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
    use utoipa::openapi::{Ref, RefOr};
    let Some(RefOr::T(Schema::Object(address))) = components.schemas.get("CaseAddress").cloned() else {
        panic!("no object schema CaseAddress")
    };
    let sp = patterns::space();
    // A code in either case of ASCII (`code`); a name as it lowercases
    // (`normalized`): each letter any character whose lower case it is.
    let any_case = |code: &str| code.chars().map(|c| format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())).collect::<String>();
    let lowering_to =
        |name: &str| name.chars().map(|c| format!("[{}]", patterns::class(|x| x.to_lowercase().eq(c.to_lowercase())))).collect::<String>();
    let names = |sweden: bool| NAMES.iter().filter(move |(_, code)| (*code == SWEDEN) == sweden).map(move |(name, _)| lowering_to(name));
    let text = |pattern: String| ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern));
    let abroad: Vec<String> = ISO_3166_ALPHA2.iter().filter(|c| **c != SWEDEN).map(|c| any_case(c)).chain(names(false)).collect();
    let swedish: Vec<String> = std::iter::once(any_case(SWEDEN)).chain(names(true)).collect();
    let sweden = ObjectBuilder::new()
        .property("country", text(format!("^{sp}*(?:{})?{sp}*$", swedish.join("|"))))
        .property("post_code", text(format!("^{sp}*(?:[0-9]{{5}})?{sp}*$")))
        .build();
    let abroad = ObjectBuilder::new()
        .property("country", text(format!("^{sp}*(?:{}){sp}*$", abroad.join("|"))))
        .property("post_code", text(format!("^{sp}*[A-Za-z0-9 -]{{0,10}}{sp}*$")))
        .required("country")
        .build();
    let mut own = address;
    own.description = Some("A case's address as a form sends it: a country code (none is Sweden) and its post code.".into());
    // Either country's post code (what the branches narrow).
    if let Some(RefOr::T(Schema::Object(p))) = own.properties.get_mut("post_code") {
        p.pattern = Some(format!("^{sp}*[A-Za-z0-9 -]{{0,10}}{sp}*$"));
    }
    let form = AllOfBuilder::new().item(own).item(Schema::OneOf(OneOfBuilder::new().item(sweden).item(abroad).build())).build();
    components.schemas.insert("CaseAddressForm".into(), Schema::AllOf(form).into());
    let Some(RefOr::T(Schema::Object(case))) = components.schemas.get_mut("CaseForm") else { panic!("no object schema CaseForm") };
    case.properties.insert("address".into(), Ref::from_schema_name("CaseAddressForm").into());
}

/// The operations anyone may call without a bearer token (every
/// other operation is documented as secured).
pub const PUBLIC: &[(&str, &str)] = &[
    ("post", "/api/bankid/auth/"),
    ("post", "/api/bankid/cancel/"),
    ("post", "/api/bankid/collect/"),
    ("get", "/api/business-sector/"),
    ("get", "/api/city/list/"),
    ("get", "/api/company-size/list/"),
    ("get", "/api/customer-type/"),
    ("get", "/api/customer/registration/init/"),
    ("post", "/api/create/customer/company-registration-number/check/"),
    ("post", "/api/create/customer/email/check/"),
    ("post", "/api/customer/activation/"),
    ("post", "/api/customer/activation/check/"),
    ("get", "/api/docs"),
    ("post", "/api/email/check/"),
    ("post", "/api/logout/"),
    ("get", "/api/openapi.json"),
    ("post", "/api/password/recover/"),
    ("post", "/api/password/recover/confirm/"),
    ("post", "/api/profile/mail/unsubscribe/"),
    ("get", "/api/public/offer/"),
    ("get", "/api/public/privacy/"),
    ("get", "/api/public/terms/"),
    ("post", "/api/registration/"),
    ("post", "/api/resend/2fa/"),
    ("post", "/api/token/"),
    ("post", "/api/token/2fa/"),
    ("post", "/api/token/refresh/"),
];

/// The operations that count a rate limit and answer 429 past it: sign-in,
/// code and password steps (per account and client address), the
/// availability checks (per client address) and every operation that mails
/// someone (per recipient).
pub const THROTTLED: &[(&str, &str)] = &[
    ("get", "/api/search/fuzzy/"),
    ("post", "/api/2fa/toggle-activation/"),
    ("post", "/api/2fa/totp/confirm/"),
    ("post", "/api/2fa/totp/disable/"),
    ("post", "/api/admin/customer-user/send-password-link/{uid}/"),
    ("post", "/api/bankid/auth/"),
    ("post", "/api/bankid/link/"),
    ("post", "/api/create/customer/company-registration-number/check/"),
    ("post", "/api/create/customer/email/check/"),
    ("post", "/api/customer/approve/{uid}/"),
    ("post", "/api/customer/create/"),
    ("post", "/api/customers/user/create/"),
    ("post", "/api/customers/user/send-password-link/{contact_id}/"),
    ("post", "/api/email/check/"),
    ("post", "/api/lawyer/create/"),
    ("post", "/api/password/change/"),
    ("post", "/api/password/recover/"),
    ("post", "/api/registration/"),
    ("post", "/api/resend/2fa/"),
    ("post", "/api/salesperson/create/"),
    ("post", "/api/staff/send-password-link/{uid}/"),
    ("post", "/api/token/"),
    ("post", "/api/token/2fa/"),
];

/// The operations that load an account by its uid and answer the
/// spec's 406 (user not found, §8) when there is none. The API negotiates
/// no content type (the exports choose theirs by a `format` parameter), so
/// 406 means only this.
pub const USER_NOT_FOUND: &[(&str, &str)] = &[
    ("post", "/api/admin/customer-user/send-password-link/{uid}/"),
    ("post", "/api/customer/approve/{uid}/"),
    ("get", "/api/customer/details/{uid}/"),
    ("put", "/api/customer/update/{uid}/"),
    ("post", "/api/user/activate/{uid}/"),
    ("post", "/api/user/deactivate/{uid}/"),
];

/// Fields an operation requires beyond its body type's own `required`: one
/// form serves several callers, and these operations' callers must give
/// more (staff and lawyers estimate a case's hours and name its customer;
/// a lawyer has at least one knowledge sector, a sales person none).
pub const REQUIRED_HERE: &[(&str, &str, &[&str])] = &[
    ("post", "/api/case/create/", &["customer", "estimated_hours"]),
    ("post", "/api/case/create/by/lawyer/", &["customer", "estimated_hours"]),
    ("post", "/api/lawyer/create/", &["knowledge_sectors"]),
    ("put", "/api/lawyer/update/{uid}/", &["knowledge_sectors"]),
];

fn operations(item: &mut utoipa::openapi::PathItem) -> Vec<(&'static str, &mut utoipa::openapi::path::Operation)> {
    [
        ("get", item.get.as_mut()),
        ("put", item.put.as_mut()),
        ("post", item.post.as_mut()),
        ("delete", item.delete.as_mut()),
        ("patch", item.patch.as_mut()),
        ("head", item.head.as_mut()),
        ("options", item.options.as_mut()),
        ("trace", item.trace.as_mut()),
    ]
    .into_iter()
    .filter_map(|(m, op)| op.map(|o| (m, o)))
    .collect()
}

fn error_response(description: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    use utoipa::openapi::{content::ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new()
        .description(description)
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build())
        .build()
        .into()
}

/// What the annotations alone leave loose: security on
/// every operation but the [`PUBLIC`] ones, 401 (and, outside the user's
/// own account operations, 403) on every secured one, unique operationIds
/// (a repeated handler name becomes method + path), a parameter the path
/// does not name is a query parameter, and the statuses every operation of
/// a kind can answer (400, 404, 406, 413, 429) with the error schema.
pub fn tighten(doc: &mut utoipa::openapi::OpenApi) {
    use std::collections::HashMap;
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::security::SecurityRequirement;
    let mut seen: HashMap<String, usize> = HashMap::new();
    for item in doc.paths.paths.values_mut() {
        for (_, op) in operations(item) {
            if let Some(id) = &op.operation_id {
                *seen.entry(id.clone()).or_default() += 1;
            }
        }
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        for (method, op) in operations(item) {
            if PUBLIC.contains(&(method, path.as_str())) {
                op.security = None;
            } else if let Some((.., scheme, _, _)) = SIGNED.iter().find(|(m, p, ..)| *m == method && p == path) {
                op.security = Some(vec![SecurityRequirement::new(*scheme, Vec::<String>::new())]);
            } else {
                if op.security.as_ref().is_none_or(|s| s.is_empty()) {
                    op.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
                }
                let own_account = op.tags.as_ref().is_some_and(|t| t.iter().any(|t| t == "auth"));
                let responses = &mut op.responses.responses;
                responses.entry("401".into()).or_insert_with(|| error_response("Missing, expired or invalid access token"));
                if !own_account {
                    responses.entry("403".into()).or_insert_with(|| error_response("The caller's role or rights do not allow this"));
                }
            }
            // What every operation of its kind can answer: a malformed
            // parameter or body (400), a body over the limit (413), an
            // object that is not there or not the caller's (404).
            let has_body = op.request_body.is_some();
            let responses = &mut op.responses.responses;
            if has_body || op.parameters.as_ref().is_some_and(|p| !p.is_empty()) {
                responses.entry("400".into()).or_insert_with(|| error_response("A parameter or field is missing or invalid"));
            }
            if has_body {
                // A route with a limit of its own says it (the others: 256 KiB).
                let limit = shared::api::body_limit(path);
                let over = if limit == shared::api::MAX_BODY_BYTES {
                    "The body is over the API's limit".to_string()
                } else {
                    format!("The body is over this operation's limit ({limit} bytes)")
                };
                responses.entry("413".into()).or_insert_with(|| error_response(&over));
            }
            if path.contains('{') {
                responses.entry("404".into()).or_insert_with(|| error_response("No such object, or not one the caller may see"));
            }
            if USER_NOT_FOUND.contains(&(method, path.as_str())) {
                responses.entry("406".into()).or_insert_with(|| error_response("No such user (the spec's user-not-found answer)"));
            }
            for (name, status, _) in SHARED_RESPONSES {
                responses
                    .entry((*status).into())
                    .or_insert_with(|| utoipa::openapi::Ref::new(format!("#/components/responses/{name}")).into());
            }
            if THROTTLED.contains(&(method, path.as_str())) {
                responses.entry("429".into()).or_insert_with(|| error_response("Too many attempts or mails: try again later"));
            }
            if op.operation_id.as_ref().is_none_or(|id| seen.get(id).copied().unwrap_or(0) > 1) {
                let slug: String = path
                    .trim_start_matches("/api/")
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
                    .collect::<String>()
                    .split('_')
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("_");
                op.operation_id = Some(format!("{method}_{slug}"));
            }
            if let Some((_, _, fields)) = REQUIRED_HERE.iter().find(|(m, p, _)| *m == method && p == path) {
                require_more(op, fields);
            }
            if LAWYER_FORMS.contains(&(method, path.as_str())) {
                external_lawyer_firm_and_rate(op);
            }
            // A write made once by its key: the key sent again with another
            // request is refused.
            if op.parameters.iter().flatten().any(|p| p.name == "Idempotency-Key") {
                op.responses
                    .responses
                    .entry("422".into())
                    .or_insert_with(|| error_response("idempotency_key_reused: the Idempotency-Key was sent before with another request"));
            }
            for p in op.parameters.iter_mut().flatten() {
                if p.name == "Idempotency-Key" {
                    p.schema = Some(idempotency_key_schema());
                }
                if matches!(p.parameter_in, ParameterIn::Path) && !path.contains(&format!("{{{}}}", p.name)) {
                    p.parameter_in = ParameterIn::Query;
                    p.required = utoipa::openapi::Required::False;
                }
            }
        }
    }
}

/// The longest `Idempotency-Key` (the store's `MAX_KEY_LEN`; a test holds
/// them equal: this crate reaches the store through no path of its own).
pub const IDEMPOTENCY_KEY_MAX: usize = 255;

/// The `Idempotency-Key` header as `shared::store::idempotency::parse_key`
/// reads it: 1 to its limit of printable ASCII characters but `"` and `\`,
/// bare or as a structured-field string (in quotes).
fn idempotency_key_schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let token = format!(r#"[!#-\[\]-~]{{1,{IDEMPOTENCY_KEY_MAX}}}"#);
    ObjectBuilder::new().schema_type(Type::String).pattern(Some(format!(r#"^(?:"{token}"|{token})$"#))).build().into()
}

/// The operations that take a lawyer's form ([`external_lawyer_firm_and_rate`]).
pub const LAWYER_FORMS: &[(&str, &str)] = &[("post", "/api/lawyer/create/"), ("put", "/api/lawyer/update/{uid}/")];

/// A lawyer's form as `shared::domain::staff::StaffInput::validate` reads
/// it: an external lawyer names its firm (some character that shows once
/// cleaned) and its hourly rate; an internal one (none said: internal)
/// need not. The body schema of `op` becomes `allOf: [its schema, anyOf:
/// [internal, external with both]]`.
fn external_lawyer_firm_and_rate(op: &mut utoipa::openapi::path::Operation) {
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, Schema, SchemaType, Type};
    let internal_or_none = ObjectBuilder::new()
        .schema_type(SchemaType::Array(vec![Type::String, Type::Null]))
        .enum_values(Some([serde_json::json!("internal"), serde_json::Value::Null]));
    let internal = ObjectBuilder::new().property("user_sub_type", internal_or_none).build();
    let external = ObjectBuilder::new()
        .property("user_sub_type", ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["external"])))
        .property("company_name", ObjectBuilder::new().schema_type(Type::String).pattern(Some(patterns::visible())))
        .property("hourly_rate", ObjectBuilder::new().schema_type(Type::Number))
        .required("user_sub_type")
        .required("company_name")
        .required("hourly_rate")
        .build();
    let either = AnyOfBuilder::new().item(internal).item(external).build();
    for media in op.request_body.iter_mut().flat_map(|b| b.content.values_mut()) {
        if let Some(schema) = media.schema.take() {
            media.schema = Some(Schema::AllOf(AllOfBuilder::new().item(schema).item(Schema::AnyOf(either.clone())).build()).into());
        }
    }
}

/// The body schema of `op` becomes `allOf: [its schema, {required: fields}]`,
/// each field given a value (not `null`; a list not empty).
fn require_more(op: &mut utoipa::openapi::path::Operation, fields: &[&str]) {
    use utoipa::openapi::schema::{AllOfBuilder, ArrayBuilder, ObjectBuilder, Schema, SchemaType, Type};
    let given = |field: &str| -> Schema {
        if field == "knowledge_sectors" {
            ArrayBuilder::new().min_items(Some(1)).build().into()
        } else {
            let types = vec![Type::String, Type::Number, Type::Integer, Type::Boolean, Type::Array, Type::Object];
            ObjectBuilder::new().schema_type(SchemaType::Array(types)).build().into()
        }
    };
    for media in op.request_body.iter_mut().flat_map(|b| b.content.values_mut()) {
        if let Some(schema) = media.schema.take() {
            let extra = fields.iter().fold(ObjectBuilder::new(), |o, f| o.required(*f).property(*f, given(f))).build();
            media.schema = Some(Schema::AllOf(AllOfBuilder::new().item(schema).item(extra).build()).into());
        }
    }
}

/// [`document`] as JSON, written by `UPDATE_OPENAPI=1 cargo test -p api-docs openapi_file`.
pub const OPENAPI_JSON: &str = include_str!("../openapi.json");

/// [`document`] as the file serves it: pretty JSON and a final newline.
pub fn document_json() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("the document serializes");
    text.push('\n');
    text
}

pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openapi_json)).routes(routes!(docs_page))
}

/// This document as a reference page for people, drawn by Redoc (loaded
/// from the site itself).
#[utoipa::path(get, path = "/api/docs", tag = "meta",
    responses((status = 200, description = "The API reference: an HTML page that draws this document with Redoc", content_type = "text/html", body = String)))]
async fn docs_page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page::html())
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document of the whole API")))]
async fn openapi_json() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI_JSON)
}
