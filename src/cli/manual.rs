//! `hnefi completions` and `hnefi man`: the command line described for shells and for `man`,
//! from the same definition that parses it, so that neither can fall behind.

use super::CliError;
use clap::Args;
use clap_complete::Shell;
use std::io::Write;

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell, e.g. `hnefi completions bash > /etc/bash_completion.d/hnefi`.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn completions(args: CompletionsArgs) -> Result<(), CliError> {
    let mut text = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "hnefi", &mut text);
    print(&text)
}

#[derive(Args)]
pub struct ManArgs {
    /// A command whose own page to print, hnefi-COMMAND(1), as the main page lists them;
    /// without it, hnefi(1).
    pub command: Option<String>,
}

pub fn man(args: ManArgs) -> Result<(), CliError> {
    let mut root = super::command();
    // Built, the commands are named as their pages are: hnefi-analyse.
    root.build();
    let page_of = match &args.command {
        None => root,
        Some(name) => root
            .find_subcommand(name)
            .cloned()
            .ok_or_else(|| CliError::out_of_range("man", name, "a command of hnefi --help"))?,
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(page_of)
        .render(&mut page)
        .map_err(CliError::write("the manual page"))?;
    print(&page)
}

fn print(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(CliError::write("standard output"))
}
