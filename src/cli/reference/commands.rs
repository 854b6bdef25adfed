//! cli.md: the long help of `bosweep` and of every subcommand, from the clap definitions.

use clap::CommandFactory;

use super::markdown::title;
use crate::cli::Cli;

/// The width the help is laid out for, whatever the terminal the page is generated in.
const WIDTH: usize = 100;

pub fn page() -> String {
    let mut root = Cli::command().term_width(WIDTH);
    root.build();
    let mut text = title(
        "Command-line reference",
        "the command line's clap definitions: each section is the command's `--help`",
    );
    section(&mut root, &mut text);
    text
}

/// `command`'s help, then each of its subcommands' in declaration order. clap's own `help`
/// subcommand is left out: it prints these same texts.
fn section(command: &mut clap::Command, text: &mut String) {
    // An environment variable's value would show in the help (`[env: BOSWEEP_DEVICE=cpu]`), and
    // the page would depend on the shell it was generated in.
    *command = std::mem::take(command).mut_args(|arg| arg.hide_env_values(true));
    let name = command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_owned();
    let help = command.render_long_help().to_string();
    let lines: Vec<&str> = help.trim_end().lines().map(str::trim_end).collect();
    text.push_str(&format!(
        "\n## {name}\n\n```text\n{}\n```\n",
        lines.join("\n")
    ));
    for sub in command.get_subcommands_mut() {
        if sub.get_name() != "help" {
            section(sub, text);
        }
    }
}
