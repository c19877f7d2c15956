//! The renderer's tests of the site's identity and theme: `site.*` variables, definitions
//! bound to the identity, links bound to a post's contact fields, and the theme's custom
//! properties in the document.

use super::*;
use crate::identity::{Identity, Social};
use crate::ids::PostId;
use crate::record_lists::DbRecord;
use crate::theme::Theme;
use serde_json::json;

fn bruna() -> Identity {
    Identity {
        name: "Doces da Bruna".into(),
        description: "Bolos e doces".into(),
        logo: "/files/uploads/1/2/0123456789abcdef0123/logo.png".into(),
        whatsapp: "5511987654321".into(),
        phone: "+55 11 3333-4444".into(),
        email: "contato@docesdabruna.com.br".into(),
        address: "Rua das Flores, 120".into(),
        hours: "Seg a sex".into(),
        social: Social {
            instagram: "https://instagram.com/docesdabruna".into(),
            ..Social::default()
        },
    }
}

fn ctx() -> RenderContext {
    let mut ctx = RenderContext::for_site(
        bruna(),
        Theme {
            primary: "#b45309".into(),
            ..Theme::default()
        },
    );
    ctx.year = Some(2031);
    ctx
}

fn render_block(block: Json, ctx: &RenderContext) -> String {
    let block: Block = serde_json::from_value(block).unwrap();
    CompiledPage::compile(std::slice::from_ref(&block))
        .unwrap()
        .render(ctx)
        .unwrap()
}

#[test]
fn templates_read_the_identity_the_theme_and_the_year() {
    let html = render_block(
        json!({"uid": "f", "template": "{{ site.name }}|{{ site.identity.name }}|{{ site.identity.description }}|{{ site.identity.whatsapp_url }}|{{ site.identity.social.instagram }}|{{ site.theme.primary }}|{{ site.theme.background }}|© {{ site.year }}|{{ site.year + 1 }}"}),
        &ctx(),
    );
    assert_eq!(
        html,
        "Doces da Bruna|Doces da Bruna|Bolos e doces|https:&#x2f;&#x2f;wa.me&#x2f;5511987654321|https:&#x2f;&#x2f;instagram.com&#x2f;docesdabruna|#b45309|#ffffff|© 2031|2032"
    );
}

#[test]
fn without_an_identity_the_site_is_its_name_and_whatsapp_url_is_undefined() {
    let ctx = RenderContext {
        site_name: "Loja".into(),
        ..RenderContext::default()
    };
    let html = render_block(
        json!({"uid": "f", "template": "{{ site.name }}|{{ site.identity.name }}|{% if site.identity.whatsapp_url %}zap{% else %}none{% endif %}|{{ site.theme.primary }}|{{ site.year > 2000 }}"}),
        &ctx,
    );
    assert_eq!(html, "Loja|Loja|none|#15803d|True");
}

#[test]
fn an_empty_value_bound_to_the_identity_reads_the_identitys() {
    let block = json!({"uid": "f", "template": "{{ brand }}|{{ about }}|{{ cta.href }}|{{ cta.label }}|{{ logo.src }}|{{ logo.alt }}|{{ mail.href }}|{{ own }}",
    "vars": [
        {"name": "brand", "type": "text", "identity": "name", "value": ""},
        {"name": "about", "type": "textarea", "identity": "description"},
        {"name": "cta", "type": "link", "identity": "whatsapp_url",
         "value": {"href": "", "label": "Peça pelo WhatsApp", "target": "_blank"}},
        {"name": "logo", "type": "image", "identity": "logo", "value": {"src": "", "alt": ""}},
        {"name": "mail", "type": "link", "identity": "email", "value": null},
        {"name": "own", "type": "text", "identity": "name", "value": "Meu texto"}
    ]});
    assert_eq!(
        render_block(block, &ctx()),
        "Doces da Bruna|Bolos e doces|https:&#x2f;&#x2f;wa.me&#x2f;5511987654321|Peça pelo WhatsApp|&#x2f;files&#x2f;uploads&#x2f;1&#x2f;2&#x2f;0123456789abcdef0123&#x2f;logo.png|Doces da Bruna|mailto:contato@docesdabruna.com.br|Meu texto"
    );
}

fn contact_post() -> PostView {
    let fields = json!({"zap": "5511987654321", "fone": "11 3333-4444",
        "mail": "a@b.com.br", "web": "https://docesdabruna.com.br", "vazio": ""});
    let kinds = [
        ("zap", "whatsapp_link"),
        ("fone", "telephone_link"),
        ("mail", "email_link"),
        ("web", "url"),
        ("vazio", "whatsapp_link"),
    ];
    let meta = json!({});
    PostView {
        record: DbRecord {
            id: PostId(1),
            name: "Bolo".into(),
            slug: "bolo".into(),
            created_at: chrono::Utc::now(),
            formatted: crate::values::formatted_fields(
                kinds.iter().map(|(s, k)| (*s, *k, &meta)),
                fields.as_object().unwrap(),
            ),
            url: None,
            fields: fields.as_object().unwrap().clone(),
        },
        permalink: "/produtos/bolo".into(),
        html_fields: vec![],
    }
}

#[test]
fn a_link_bound_to_a_contact_field_is_a_working_link_with_its_own_label() {
    let link = |field: &str| {
        json!({"name": field, "type": "link", "postfield": field,
            "value": {"href": "#", "label": format!("Botão {field}"), "target": "_blank"}})
    };
    let block = json!({"uid": "btn",
        "template": "{% for l in [zap, fone, mail, web, vazio] %}{% if l.href is working_link %}<a href=\"{{ l.href }}\" target=\"{{ l.target }}\">{{ l.label }}</a>{% else %}-{% endif %}{% endfor %}",
        "vars": [link("zap"), link("fone"), link("mail"), link("web"), link("vazio")]});
    let plain = RenderContext {
        post: Some(contact_post()),
        ..RenderContext::default()
    };
    assert_eq!(
        render_block(block.clone(), &plain),
        "<a href=\"https:&#x2f;&#x2f;wa.me&#x2f;5511987654321\" target=\"_blank\">Botão zap</a>\
         <a href=\"tel:1133334444\" target=\"_blank\">Botão fone</a>\
         <a href=\"mailto:a@b.com.br\" target=\"_blank\">Botão mail</a>\
         <a href=\"https:&#x2f;&#x2f;docesdabruna.com.br\" target=\"_blank\">Botão web</a>-"
    );
    // An empty field bound to the identity falls back to the site's WhatsApp.
    let mut bound = block;
    bound["vars"][4]["identity"] = json!("whatsapp_url");
    let site = RenderContext {
        post: Some(contact_post()),
        ..ctx()
    };
    assert!(render_block(bound, &site).ends_with(
        "<a href=\"https:&#x2f;&#x2f;wa.me&#x2f;5511987654321\" target=\"_blank\">Botão vazio</a>"
    ));
}

#[test]
fn every_document_carries_the_theme_and_the_site_name() {
    let parts = DocumentParts {
        title: "Sobre | Doces da Bruna".into(),
        site_name: "Doces da Bruna".into(),
        theme: Theme {
            primary: "#b45309".into(),
            ..Theme::default()
        },
        ..DocumentParts::default()
    };
    let html = document(&parts, "<p>x</p>");
    let base = html.find(BASE_CSS).unwrap();
    let theme = html.find(":root{--vt-primary:#b45309;").unwrap();
    assert!(base < theme, "the theme follows the base stylesheet");
    assert!(html.contains("--vt-on-primary:#ffffff;"));
    assert!(html.contains("<meta property=\"og:site_name\" content=\"Doces da Bruna\">"));
    assert!(html.contains("<meta property=\"og:title\" content=\"Sobre | Doces da Bruna\">"));
    // A document without a theme has the platform's.
    let plain = document(&DocumentParts::default(), "");
    assert!(plain.contains(&Theme::default().style(None)));
    assert!(!plain.contains("og:site_name"));
}
