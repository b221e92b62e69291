//! Which provider a search goes to, at which address, with which key (SPEC §21, 24.3).
//!
//! One function, `choose`, decides, from the environment and the catalog's `[search]` table
//! (handed in as `CatalogSearch`; the catalog module parses the file). Precedence:
//! provider — `LOOPR_SEARCH_PROVIDER`, else the catalog's `provider`, else the provider whose
//! key is set (brave, then tavily), else duckduckgo; address — `LOOPR_SEARCH_ENDPOINT`, else the
//! catalog's `endpoint`, else (searxng) `SEARXNG_URL`, else the provider's public address; key —
//! the provider's variable (`BRAVE_API_KEY`, `TAVILY_API_KEY`), else the catalog's `api_key`.
//! The catalog's endpoint and key are used only for the provider the catalog names (or when it
//! names none), so a key is never sent to a provider it was not written for.

use crate::error::{Result, ToolError};
use loopr_env_vars::EnvVars;
use url::Url;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    DuckDuckGo,
    Brave,
    Tavily,
    Searxng,
}

pub const NAMES: &str = "duckduckgo, brave, tavily, searxng";

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Provider::DuckDuckGo => "duckduckgo",
            Provider::Brave => "brave",
            Provider::Tavily => "tavily",
            Provider::Searxng => "searxng",
        }
    }

    /// How a message names it.
    pub fn title(self) -> &'static str {
        match self {
            Provider::DuckDuckGo => "DuckDuckGo",
            Provider::Brave => "the Brave Search API",
            Provider::Tavily => "the Tavily API",
            Provider::Searxng => "the SearXNG instance",
        }
    }

    fn parse(name: &str) -> Option<Provider> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "duckduckgo" | "ddg" => Provider::DuckDuckGo,
            "brave" => Provider::Brave,
            "tavily" => Provider::Tavily,
            "searxng" | "searx" => Provider::Searxng,
            _ => return None,
        })
    }

    /// The variable holding this provider's key, if it takes one.
    pub fn key_var(self) -> Option<&'static str> {
        match self {
            Provider::Brave => Some(EnvVars::BRAVE_API_KEY),
            Provider::Tavily => Some(EnvVars::TAVILY_API_KEY),
            Provider::DuckDuckGo | Provider::Searxng => None,
        }
    }

    /// The public address a provider is reached at when none is configured.
    fn default_base(self) -> Option<&'static str> {
        match self {
            Provider::DuckDuckGo => Some("https://html.duckduckgo.com"),
            Provider::Brave => Some("https://api.search.brave.com"),
            Provider::Tavily => Some("https://api.tavily.com"),
            Provider::Searxng => None,
        }
    }

    /// The path of the search endpoint below the base address.
    fn path(self) -> &'static str {
        match self {
            Provider::DuckDuckGo => "/html/",
            Provider::Brave => "/res/v1/web/search",
            Provider::Tavily => "/search",
            Provider::Searxng => "/search",
        }
    }
}

/// The catalog's `[search]` table (SPEC 24.3, 24.7), as the catalog module hands it over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogSearch {
    pub provider: Option<String>,
    pub endpoint: Option<String>,
    pub api_key: Option<String>,
}

/// An API key. It is never printed: Debug says only that it is set, and it has no Display.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced, for quoting what a provider said —
    /// also the key split by common separators (`sk-ab cd`, `sk-ab\ncd`, `s.k.a.b`: SPEC 31.4),
    /// for a key long enough (8 characters) that such a match is no accident.
    pub fn scrub(&self, text: &str) -> String {
        if self.0.len() < 4 {
            return text.to_string();
        }
        let whole = text.replace(&self.0, "[API key]");
        if self.0.chars().count() < 8 {
            return whole;
        }
        let pattern: Vec<String> = self
            .0
            .chars()
            .map(|c| regex::escape(&c.to_string()))
            .collect();
        match regex::Regex::new(&pattern.join(SEPARATORS)) {
            Ok(re) => re.replace_all(&whole, "[API key]").into_owned(),
            Err(_) => whole,
        }
    }

    /// `e` with the key scrubbed from its message, hint and text fields.
    pub fn scrub_error(&self, mut e: crate::error::ToolError) -> crate::error::ToolError {
        e.message = self.scrub(&e.message);
        e.hint = e.hint.map(|h| self.scrub(&h));
        for v in e.extra.values_mut() {
            if let serde_json::Value::String(s) = v {
                *s = self.scrub(s);
            }
        }
        e
    }
}

/// What may stand between two characters of a key that is quoted split: blanks, line breaks
/// and common punctuation, up to three of them.
const SEPARATORS: &str = r#"[\s\-_.,:;/|'"+*]{0,3}"#;

/// `text` with the userinfo of every URL in it (`http://user:pass@host`) replaced by
/// `[userinfo]` (SPEC 31.4): a SearXNG address with a password is never shown, in an error,
/// `catalog` or anywhere.
pub fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let authority_end = tail
            .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace() || c == '"')
            .unwrap_or(tail.len());
        let authority = &tail[..authority_end];
        match authority.rfind('@') {
            Some(i) => {
                out.push_str("[userinfo]");
                out.push_str(&authority[i..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[authority_end..];
    }
    out.push_str(rest);
    out
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<set>)")
    }
}

/// The decision: where the search goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub provider: Provider,
    /// The search endpoint's full URL.
    pub endpoint: Url,
    pub key: Option<Secret>,
}

impl Chosen {
    /// `text` without the key and without the endpoint's userinfo (its password too where it
    /// appears on its own, decoded or not).
    pub fn scrub(&self, text: &str) -> String {
        let mut t = redact_userinfo(text);
        if let Some(k) = &self.key {
            t = k.scrub(&t);
        }
        if let Some(pass) = self.endpoint.password() {
            let decoded = url::form_urlencoded::parse(format!("p={pass}").as_bytes())
                .next()
                .map(|(_, v)| v.into_owned());
            for p in std::iter::once(pass.to_string()).chain(decoded) {
                t = Secret(p).scrub(&t).replace("[API key]", "[password]");
            }
        }
        t
    }

    /// `e` with the key and the userinfo scrubbed from its message, hint and text fields.
    pub fn scrub_error(&self, mut e: crate::error::ToolError) -> crate::error::ToolError {
        e.message = self.scrub(&e.message);
        e.hint = e.hint.map(|h| self.scrub(&h));
        for v in e.extra.values_mut() {
            if let serde_json::Value::String(s) = v {
                *s = self.scrub(s);
            }
        }
        e
    }
}

/// Decides the provider, its endpoint and key. `env` reads a variable (an empty value counts as
/// unset); `catalog` is the catalog's `[search]` table when a catalog is in use.
pub fn choose(
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Option<&CatalogSearch>,
) -> Result<Chosen> {
    let env = |name: &str| {
        env(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let catalog = catalog.cloned().unwrap_or_default();
    let named = |v: String, source: &str| {
        Provider::parse(&v).ok_or_else(|| {
            ToolError::usage(format!(
                "{source} names the search provider {v:?}, which loopr-tool does not know (it knows {NAMES})"
            ))
            .hint(format!("Set {source} to one of: {NAMES}."))
        })
    };
    let provider = match (
        env(EnvVars::LOOPR_SEARCH_PROVIDER),
        catalog.provider.clone(),
    ) {
        (Some(v), _) => named(v, EnvVars::LOOPR_SEARCH_PROVIDER)?,
        (None, Some(v)) => named(v, "the catalog's [search] provider")?,
        (None, None) if env(EnvVars::BRAVE_API_KEY).is_some() => Provider::Brave,
        (None, None) if env(EnvVars::TAVILY_API_KEY).is_some() => Provider::Tavily,
        (None, None) => Provider::DuckDuckGo,
    };
    // The catalog's endpoint and key belong to the provider it names.
    let catalog_applies = catalog
        .provider
        .as_deref()
        .is_none_or(|p| Provider::parse(p) == Some(provider));
    let from_catalog = |v: &Option<String>| {
        v.as_ref()
            .filter(|_| catalog_applies)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let (base, source) = match (
        env(EnvVars::LOOPR_SEARCH_ENDPOINT),
        from_catalog(&catalog.endpoint),
        (provider == Provider::Searxng)
            .then(|| env(EnvVars::SEARXNG_URL))
            .flatten(),
    ) {
        (Some(e), _, _) => (e, EnvVars::LOOPR_SEARCH_ENDPOINT),
        (None, Some(e), _) => (e, "the catalog's [search] endpoint"),
        (None, None, Some(e)) => (e, EnvVars::SEARXNG_URL),
        (None, None, None) => match provider.default_base() {
            Some(b) => (b.to_string(), "the default"),
            None => {
                return Err(ToolError::usage(
                    "the search provider is searxng, but no SearXNG instance is configured",
                )
                .hint("Set SEARXNG_URL to the instance's address (e.g. http://localhost:8080), or choose another provider with LOOPR_SEARCH_PROVIDER."));
            }
        },
    };
    let endpoint = endpoint(&base, provider).map_err(|why| {
        let base = redact_userinfo(&base);
        ToolError::usage(format!("{source} ({base:?}) is not a usable address: {why}"))
            .hint("Give the provider's base address, e.g. http://localhost:8080 or https://search.example.org.")
    })?;
    let key = match provider.key_var() {
        None => None,
        Some(var) => match env(var).or_else(|| from_catalog(&catalog.api_key)) {
            Some(k) => Some(Secret(k)),
            None => {
                return Err(ToolError::usage(format!(
                    "the search provider is {}, which needs an API key, and {var} is not set",
                    provider.name()
                ))
                .hint(format!(
                    "Set {var} (or the catalog's [search] api_key), or unset LOOPR_SEARCH_PROVIDER to search with DuckDuckGo, which needs no key."
                )));
            }
        },
    };
    Ok(Chosen {
        provider,
        endpoint,
        key,
    })
}

/// The provider's search endpoint below `base`. A base that already ends with the endpoint's
/// path (`http://host/search` for SearXNG) is taken as the endpoint itself.
fn endpoint(base: &str, provider: Provider) -> std::result::Result<Url, String> {
    let mut url = Url::parse(base).map_err(|e| e.to_string())?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("the scheme {}: is not http or https", url.scheme()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("it has no host".into());
    }
    url.set_query(None);
    url.set_fragment(None);
    let path = provider.path();
    let have = url.path().trim_end_matches('/').to_string();
    if !have.ends_with(path.trim_end_matches('/')) || have.is_empty() {
        url.set_path(&format!("{have}{path}"));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn userinfo_is_redacted_and_a_split_key_scrubbed() {
        assert_eq!(
            redact_userinfo("at http://u:p@host:8080/search?q=1 and https://h/x"),
            "at http://[userinfo]@host:8080/search?q=1 and https://h/x"
        );
        assert_eq!(redact_userinfo("no url here"), "no url here");
        let k = Secret("sk-abcdef123456".into());
        for quoted in [
            "sk-abcdef123456",
            "sk-abc def123456",
            "sk-abcdef\n123456",
            "s k - a b c d e f 1 2 3 4 5 6",
            "sk-abc-def-123-456",
        ] {
            assert_eq!(
                k.scrub(&format!("key {quoted}!")),
                "key [API key]!",
                "{quoted}"
            );
        }
        assert_eq!(k.scrub("sk-abcdef 99"), "sk-abcdef 99");
    }

    fn with(vars: &[(&str, &str)], catalog: Option<&CatalogSearch>) -> Result<Chosen> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        choose(&|k| map.get(k).cloned(), catalog)
    }

    fn name(vars: &[(&str, &str)], catalog: Option<&CatalogSearch>) -> &'static str {
        with(vars, catalog).unwrap().provider.name()
    }

    #[test]
    fn precedence_of_spec_24_3() {
        assert_eq!(name(&[], None), "duckduckgo");
        assert_eq!(name(&[("TAVILY_API_KEY", "t")], None), "tavily");
        assert_eq!(
            name(&[("TAVILY_API_KEY", "t"), ("BRAVE_API_KEY", "b")], None),
            "brave"
        );
        let cat = CatalogSearch {
            provider: Some("tavily".into()),
            api_key: Some("from-catalog".into()),
            ..Default::default()
        };
        assert_eq!(name(&[("BRAVE_API_KEY", "b")], Some(&cat)), "tavily");
        assert_eq!(
            name(
                &[
                    ("LOOPR_SEARCH_PROVIDER", "DuckDuckGo"),
                    ("BRAVE_API_KEY", "b")
                ],
                Some(&cat)
            ),
            "duckduckgo"
        );
        // An empty variable is unset.
        assert_eq!(
            name(
                &[("LOOPR_SEARCH_PROVIDER", " "), ("BRAVE_API_KEY", "")],
                None
            ),
            "duckduckgo"
        );
    }

    #[test]
    fn keys_come_from_the_variable_then_the_catalog_of_that_provider() {
        let cat = CatalogSearch {
            provider: Some("tavily".into()),
            api_key: Some("from-catalog".into()),
            endpoint: Some("http://10.0.0.2:9000".into()),
        };
        let c = with(&[], Some(&cat)).unwrap();
        assert_eq!(c.key.unwrap().expose(), "from-catalog");
        assert_eq!(c.endpoint.as_str(), "http://10.0.0.2:9000/search");
        let c = with(&[("TAVILY_API_KEY", " env-key ")], Some(&cat)).unwrap();
        assert_eq!(c.key.unwrap().expose(), "env-key");
        // The catalog's key and endpoint are tavily's: never sent to brave.
        let e = with(&[("LOOPR_SEARCH_PROVIDER", "brave")], Some(&cat)).unwrap_err();
        assert!(
            e.message.contains("BRAVE_API_KEY is not set"),
            "{}",
            e.message
        );
        let c = with(
            &[("LOOPR_SEARCH_PROVIDER", "brave"), ("BRAVE_API_KEY", "b")],
            Some(&cat),
        )
        .unwrap();
        assert_eq!(
            c.endpoint.as_str(),
            "https://api.search.brave.com/res/v1/web/search"
        );
        // A catalog that names no provider lends its key to the chosen one.
        let anon = CatalogSearch {
            api_key: Some("k".into()),
            ..Default::default()
        };
        let c = with(&[("LOOPR_SEARCH_PROVIDER", "brave")], Some(&anon)).unwrap();
        assert_eq!(c.key.unwrap().expose(), "k");
    }

    #[test]
    fn endpoints() {
        let ep = |vars: &[(&str, &str)]| with(vars, None).unwrap().endpoint.to_string();
        assert_eq!(ep(&[]), "https://html.duckduckgo.com/html/");
        assert_eq!(
            ep(&[("LOOPR_SEARCH_ENDPOINT", "http://127.0.0.1:5/")]),
            "http://127.0.0.1:5/html/"
        );
        let sx = [("LOOPR_SEARCH_PROVIDER", "searxng")];
        assert!(
            with(&sx, None)
                .unwrap_err()
                .message
                .contains("no SearXNG instance")
        );
        let mut v = sx.to_vec();
        v.push(("SEARXNG_URL", "http://192.168.1.9:8888"));
        assert_eq!(ep(&v), "http://192.168.1.9:8888/search");
        v[1] = ("SEARXNG_URL", "https://sx.example/searx/search?q=x");
        assert_eq!(ep(&v), "https://sx.example/searx/search");
        v.push(("LOOPR_SEARCH_ENDPOINT", "http://127.0.0.1:7"));
        assert_eq!(ep(&v), "http://127.0.0.1:7/search");
        for bad in ["file:///tmp/x", "not a url", "http://"] {
            let e = with(&[("LOOPR_SEARCH_ENDPOINT", bad)], None).unwrap_err();
            assert!(
                e.message.contains("LOOPR_SEARCH_ENDPOINT"),
                "{bad}: {}",
                e.message
            );
        }
    }

    #[test]
    fn unknown_names_and_missing_keys_are_usage_errors_that_never_show_a_key() {
        let e = with(&[("LOOPR_SEARCH_PROVIDER", "google")], None).unwrap_err();
        assert!(e.message.contains("\"google\"") && e.message.contains(NAMES));
        let e = with(&[("LOOPR_SEARCH_PROVIDER", "tavily")], None).unwrap_err();
        assert!(e.message.contains("TAVILY_API_KEY"));
        let c = with(&[("BRAVE_API_KEY", "sekrit-123")], None).unwrap();
        assert!(!format!("{c:?}").contains("sekrit-123"));
        assert_eq!(
            c.key.unwrap().scrub("bad key sekrit-123!"),
            "bad key [API key]!"
        );
    }
}
