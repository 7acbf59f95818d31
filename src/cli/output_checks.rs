//! Checks of the output files a command is given, made before it runs: a search or a round
//! of measurements may take minutes, and an output found wrong after them wastes them.

use super::failure::Failure;
use std::path::Path;

/// Refuses an output that is the instance file itself (after symlinks): the run would
/// replace its own input with what it wrote. `named` says which output, as the user gave it
/// (`--profile out.csv`, `--out r.md: its plot r.svg`).
pub fn refuse_the_instance(named: &str, output: &Path, instance: &str) -> Result<(), Failure> {
    let (Ok(output_file), Ok(instance_file)) = (std::fs::canonicalize(output), std::fs::canonicalize(instance)) else {
        return Ok(());
    };
    if output_file == instance_file && instance_file.is_file() {
        return Err(Failure::bad_input(format!(
            "{named} is the instance file {instance}: the run would replace its input; name another file"
        )));
    }
    Ok(())
}
