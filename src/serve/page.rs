//! The page: its markup (maud), its script and style inline, nothing fetched.
pub fn render() -> String {
    String::new()
}
