//! Who may talk to the server: requests must name it by one of its own addresses (`Host`), and
//! come from its own page if from a page at all (`Origin`). A web page elsewhere can make the
//! browser send requests to 127.0.0.1 (cross-site requests), or give its own name the
//! server's address (DNS rebinding); either way the name it uses is not the server's, and the
//! request is refused.

use super::error::ApiError;
use std::net::IpAddr;

/// The server's own names: `host:port` as a browser writes them.
#[derive(Clone, Debug)]
pub struct Own {
    authorities: Vec<String>,
    port: u16,
}

impl Own {
    /// The names of a server bound to `ip` on `port`: the address itself and, on the
    /// loopback or every address, the machine's own names for it.
    pub fn new(ip: IpAddr, port: u16) -> Own {
        let literal = |ip: IpAddr| match ip {
            IpAddr::V4(v4) => format!("{v4}:{port}"),
            IpAddr::V6(v6) => format!("[{v6}]:{port}"),
        };
        let mut authorities = vec![literal(ip)];
        if ip.is_loopback() || ip.is_unspecified() {
            authorities.extend([
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ]);
        }
        if port == 80 {
            // Browsers leave the default port out of the names they send.
            let bare: Vec<String> = authorities
                .iter()
                .map(|a| a.trim_end_matches(":80").to_string())
                .collect();
            authorities.extend(bare);
        }
        authorities.dedup();
        Own { authorities, port }
    }

    /// The server also answers to `name`, the host name it was given by: the name its user
    /// chose is no rebinding attacker's.
    pub fn also(mut self, name: Option<&str>) -> Own {
        let port = self.port;
        if let Some(name) = name {
            let mut named = vec![format!("{name}:{port}")];
            if port == 80 {
                named.push(name.to_string());
            }
            self.authorities.extend(named);
            self.authorities.dedup();
        }
        self
    }

    /// The address the server prints.
    pub fn url(&self) -> String {
        format!("http://{}/", self.authorities[0])
    }

    fn is_own(&self, authority: &str) -> bool {
        self.authorities
            .iter()
            .any(|a| a.eq_ignore_ascii_case(authority))
    }

    /// Whether a request with these headers may be served.
    pub fn check(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), ApiError> {
        let host = host.unwrap_or_default().trim();
        if !self.is_own(host) {
            return Err(ApiError::Host(host.to_string()));
        }
        match origin.map(str::trim) {
            None => Ok(()),
            Some(origin) => match origin.strip_prefix("http://") {
                Some(authority) if self.is_own(authority.trim_end_matches('/')) => Ok(()),
                _ => Err(ApiError::Origin(origin.to_string())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_servers_own_names_pass() {
        let own = Own::new("127.0.0.1".parse().unwrap(), 8011);
        assert_eq!(own.url(), "http://127.0.0.1:8011/");
        assert!(own.check(Some("127.0.0.1:8011"), None).is_ok());
        assert!(
            own.check(Some("LOCALHOST:8011"), Some("http://localhost:8011"))
                .is_ok()
        );
        assert!(
            own.check(Some("[::1]:8011"), Some("http://127.0.0.1:8011"))
                .is_ok()
        );
        // DNS rebinding: the browser names the attacker's host.
        assert!(matches!(
            own.check(Some("evil.example:8011"), None),
            Err(ApiError::Host(_))
        ));
        assert!(matches!(
            own.check(Some("127.0.0.1:9999"), None),
            Err(ApiError::Host(_))
        ));
        assert!(matches!(
            own.check(Some("127.0.0.1"), None),
            Err(ApiError::Host(_))
        ));
        assert!(matches!(own.check(None, None), Err(ApiError::Host(_))));
        // A cross-site request: the right host, another page.
        for origin in [
            "http://evil.example",
            "null",
            "https://127.0.0.1:8011",
            "http://127.0.0.1:80",
        ] {
            assert!(
                matches!(
                    own.check(Some("127.0.0.1:8011"), Some(origin)),
                    Err(ApiError::Origin(_))
                ),
                "{origin}"
            );
        }
    }

    #[test]
    fn a_host_name_given_is_the_servers_own() {
        let own = Own::new("192.168.1.5".parse().unwrap(), 8011).also(Some("board.lan"));
        assert_eq!(own.url(), "http://192.168.1.5:8011/");
        assert!(
            own.check(Some("board.lan:8011"), Some("http://board.lan:8011"))
                .is_ok()
        );
        assert!(own.check(Some("192.168.1.5:8011"), None).is_ok());
        assert!(own.check(Some("other.lan:8011"), None).is_err());
        let web = Own::new("192.168.1.5".parse().unwrap(), 80).also(Some("board.lan"));
        assert!(web.check(Some("board.lan"), None).is_ok());
    }

    #[test]
    fn another_address_is_named_by_itself() {
        let own = Own::new("192.168.1.5".parse().unwrap(), 80);
        assert_eq!(own.url(), "http://192.168.1.5:80/");
        assert!(own.check(Some("192.168.1.5:80"), None).is_ok());
        assert!(
            own.check(Some("192.168.1.5"), Some("http://192.168.1.5"))
                .is_ok()
        );
        assert!(own.check(Some("localhost:80"), None).is_err());
        let v6 = Own::new("::1".parse().unwrap(), 7);
        assert!(
            v6.check(Some("[::1]:7"), Some("http://localhost:7"))
                .is_ok()
        );
    }
}
