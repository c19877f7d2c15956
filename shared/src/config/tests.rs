use super::*;

#[test]
fn every_setting_is_documented_in_help_and_nothing_else_is() {
    let value = serde_json::to_value(Settings::default()).unwrap();
    let mut keys: Vec<String> = value
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.to_ascii_uppercase())
        .collect();
    keys.sort();
    let mut documented: Vec<String> = SETTINGS_HELP.iter().map(|(k, _)| k.to_string()).collect();
    documented.sort();
    assert_eq!(keys, documented);
}

#[test]
fn the_example_file_loads_and_mentions_every_setting() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../infra/vitrine.example.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    for (name, _) in SETTINGS_HELP {
        assert!(
            text.contains(&format!("{} =", name.to_ascii_lowercase())),
            "{name} missing from the example"
        );
    }
    figment::Jail::expect_with(|_| {
        Settings::load(Some(&path)).unwrap();
        Ok(())
    });
}

#[test]
fn environment_overrides_file_which_overrides_defaults() {
    figment::Jail::expect_with(|jail| {
        jail.create_file(
            "vitrine.toml",
            "platform_domain = \"from-file.test\"\ncontrol_listen = \"127.0.0.1:7000\"\n",
        )?;
        jail.set_env("VITRINE_PLATFORM_DOMAIN", "from-env.test");
        let s = Settings::load(Some(std::path::Path::new("vitrine.toml"))).unwrap();
        assert_eq!(s.platform_domain, "from-env.test");
        assert_eq!(s.control_listen, "127.0.0.1:7000");
        assert_eq!(s.edge_http_listen, "127.0.0.1:8080");
        Ok(())
    });
}

#[test]
fn bad_values_are_refused_with_the_key_named() {
    figment::Jail::expect_with(|jail| {
        jail.set_env("VITRINE_CONTROL_LISTEN", "not-an-address");
        let err = Settings::load(None).unwrap_err().to_string();
        assert!(err.contains("CONTROL_LISTEN"), "{err}");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.set_env("VITRINE_DATABASE_URL", "mysql://x");
        let err = Settings::load(None).unwrap_err().to_string();
        assert!(err.contains("DATABASE_URL"), "{err}");
        Ok(())
    });
    figment::Jail::expect_with(|jail| {
        jail.set_env("VITRINE_EDGE_TRUSTED_PROXIES", "10.0.0.0/8,lb.internal");
        let err = Settings::load(None).unwrap_err().to_string();
        assert!(err.contains("EDGE_TRUSTED_PROXIES"), "{err}");
        assert!(err.contains("lb.internal"), "{err}");
        Ok(())
    });
}

#[test]
fn secrets_are_redacted_in_debug_output() {
    let s = Settings {
        smtp_url: Some(Secret::new("smtp://user:pw@mail")),
        ..Settings::default()
    };
    assert!(!format!("{s:?}").contains("pw@mail"));
}

#[test]
fn secure_cookies_are_kept_over_https_and_on_loopback_only() {
    let at = |url: &str| {
        Settings {
            public_url: url.into(),
            ..Settings::default()
        }
        .public_url_keeps_secure_cookies()
    };
    for url in [
        "https://app.vitrine.example",
        "http://localhost:8000",
        "http://app.localhost:8000",
        "http://127.0.0.1:8000",
        "http://[::1]:8000",
    ] {
        assert!(at(url), "{url}");
    }
    for url in ["http://app.vitrine.example", "http://192.168.1.5:8000"] {
        assert!(!at(url), "{url}");
    }
}

#[test]
fn preview_url_uses_the_edge_port_and_platform_domain() {
    let s = Settings::default();
    assert_eq!(s.preview_url("loja"), "http://loja.localhost:8080");
    let s = Settings {
        preview_url_template: Some("https://{slug}.vitrine.site".into()),
        ..Settings::default()
    };
    assert_eq!(s.preview_url("loja"), "https://loja.vitrine.site");
}
