//! A user's binary names itself everywhere: `examples/tiles.rs`'s workbench (`tiles-bench`,
//! its own family only) run as a program of its own. This file's `main` is that program when
//! `TILES_BENCH_RUN` is set, and otherwise the test, which runs itself with that variable
//! and reads what the program printed and its exit code (`harness = false` in Cargo.toml).

#[allow(dead_code)] // Its `main` is the example's; here only `workbench()` and the family.
#[path = "../examples/tiles.rs"]
mod tiles;

use backtrack_bench::knobs::{KnobError, KnobReader, KnobSpec, KnobValues};
use backtrack_bench::puzzles::{DataError, Puzzle};
use std::process::{Command, ExitCode};

const RUN_AS_PROGRAM: &str = "TILES_BENCH_RUN";

fn main() -> ExitCode {
    if std::env::var_os(RUN_AS_PROGRAM).is_some() {
        return tiles::workbench().run_cli();
    }
    a_mistyped_knob_default_is_refused_at_registration_naming_family_and_knob();
    a_short_form_that_would_never_reach_its_family_is_refused_at_registration();
    a_family_of_defaults_only_has_names_text_and_no_drawing();
    version_help_and_usage_carry_the_programs_name();
    list_and_help_show_only_its_own_family_with_its_short_forms();
    errors_carry_the_programs_name();
    a_built_in_family_is_refused_as_not_offered();
    a_report_written_in_a_users_folder_links_nothing_that_is_not_there();
    println!("user_binary: every check passed");
    ExitCode::SUCCESS
}

/// Runs the program with `arguments` in `directory`: (exit code, stdout, stderr).
fn run_in(directory: &std::path::Path, arguments: &[&str]) -> (i32, String, String) {
    let output = Command::new(std::env::current_exe().expect("the test's own path"))
        .args(arguments)
        .env(RUN_AS_PROGRAM, "1")
        .current_dir(directory)
        .output()
        .expect("the program runs");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8 output");
    (output.status.code().expect("an exit code"), text(output.stdout), text(output.stderr))
}

fn run(arguments: &[&str]) -> (i32, String, String) {
    run_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), arguments)
}

fn version_help_and_usage_carry_the_programs_name() {
    assert_eq!(run(&["--version"]), (0, "tiles-bench 0.1.0\n".to_string(), String::new()));
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(help.starts_with("Domino tilings of rectangular boards, counted node by node.\n"), "{help}");
    assert!(help.contains("Usage: tiles-bench [COMMAND]"), "{help}");
    assert!(!help.contains("backtrack-bench"), "{help}");
    let (_, solve_help, _) = run(&["solve", "--help"]);
    assert!(solve_help.contains("Usage: tiles-bench solve [OPTIONS] <INSTANCE>"), "{solve_help}");
}

fn list_and_help_show_only_its_own_family_with_its_short_forms() {
    let (code, list, _) = run(&["list"]);
    assert_eq!(code, 0);
    assert_eq!(
        list,
        "Instances by short name (or give a path to a puzzle-instance/v1 file):\n  2x3          family dominoes\n  \
         4x5          family dominoes\n\nKnobs of dominoes:\n  --order <horizontal|vertical>  [default: horizontal]\n      \
         Which domino is tried first at the first empty cell: lying or standing.\n"
    );
    let (_, help, _) = run(&["--help"]);
    assert!(help.contains("INSTANCE is a short name (2x3, 4x5) or a path"), "{help}");
    let (_, solve_help, _) = run(&["solve", "--help"]);
    assert!(solve_help.contains("A short name (2x3, 4x5) or path to an instance file"), "{solve_help}");
    assert!(solve_help.contains("--order <VALUE>"), "{solve_help}");
    // The built-in families' knobs (`--rules`, `--pruning`, ...) are not offered.
    for built_in in ["--rules", "--pruning", "--placement", "rings"] {
        assert!(!solve_help.contains(built_in), "{built_in} in:\n{solve_help}");
    }
    let (code, solved, _) = run(&["solve", "4x5", "--json"]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&solved).expect("one JSON object");
    assert_eq!(report["solutions"], 95, "the published count of 4x5 domino tilings");
}

fn errors_carry_the_programs_name() {
    let (code, _, error) = run(&["solve", "4x5", "--order", "diagonal"]);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "tiles-bench: error: dominoes: `diagonal` is not a value of knob `order`; allowed: horizontal, vertical\n"
    );
    let (code, _, error) = run(&[]);
    assert_eq!(
        (code, error.as_str()),
        (2, "tiles-bench: error: no command given; `tiles-bench --help` lists the commands\n")
    );
}

fn a_built_in_family_is_refused_as_not_offered() {
    let (code, _, error) = run(&["solve", "rings"]);
    assert_eq!(code, 2);
    assert_eq!(
        error,
        "tiles-bench: error: rings: a built-in instance, which tiles-bench does not offer; its families: dominoes\n"
    );
    let (code, _, error) = run(&["solve", "instances/hooks_7.json"]);
    assert_eq!(code, 2);
    assert!(
        error.starts_with("tiles-bench: error: instances/hooks_7.json:")
            && error.ends_with(
                "family: `hooks` is a built-in family, but tiles-bench does not offer it; its families: dominoes\n"
            ),
        "{error}"
    );
}

fn a_report_written_in_a_users_folder_links_nothing_that_is_not_there() {
    let crate_root = tempfile::tempdir().expect("a temporary folder");
    let spec = crate_root.path().join("tiny.toml");
    std::fs::write(
        &spec,
        "name = \"tiny\"\ndescription = \"4x5, each order\"\nrepeats = 1\nwarmup = 0\n\n[[block]]\n\
         instances = [\"4x5\"]\nknobs = \"each\"\nstrategies = [\"sequential\"]\nbaseline = false\n",
    )
    .expect("the spec");
    let (code, _, error) = run_in(crate_root.path(), &["sweep", "--spec", "tiny.toml", "--quiet"]);
    assert_eq!(code, 0, "{error}");
    let (code, _, error) = run_in(crate_root.path(), &["report", "--quiet"]);
    assert_eq!(code, 0, "{error}");
    let readme = std::fs::read_to_string(crate_root.path().join("results/README.md")).expect("the README");
    assert!(readme.contains("Generated by `tiles-bench report`"), "{readme}");
    assert!(readme.contains("(run `tiles-bench report` on this folder)"), "{readme}");
    assert!(!readme.contains("](../") && !readme.contains("regen-tables.sh"), "{readme}");
}

/// A family whose knob `order` declares the default `mod6` among the values `mod3 | mod4`;
/// or (`FLAG_NAME`) whose knob is named `first`, as `solve`'s own flag `--first`.
struct MistypedDefault<const FLAG_NAME: bool = false>;

impl<const FLAG_NAME: bool> Puzzle for MistypedDefault<FLAG_NAME> {
    const FAMILY: &'static str = if FLAG_NAME { "flag_named_knob" } else { "mistyped_default" };
    const KNOBS: &'static [KnobSpec] = if FLAG_NAME {
        &[KnobSpec { name: "first", values: &["mod3", "mod4"], default: "mod3", help: "Which residue first." }]
    } else {
        &[KnobSpec { name: "order", values: &["mod3", "mod4"], default: "mod6", help: "Which residue first." }]
    };
    type Config = ();
    type Model = tiles::Board;
    type AnswerKey = ();
    fn parse(_: &serde_json::Value) -> Result<Self, DataError> {
        Ok(MistypedDefault::<FLAG_NAME>)
    }
    fn config(knobs: &KnobValues) -> Result<(), KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs).map(drop)
    }
    fn describe(_: &()) -> Vec<(&'static str, String)> {
        vec![("order", "mod3".to_string())]
    }
    fn models(&self, _: &()) -> Vec<tiles::Board> {
        Vec::new()
    }
    fn answer_key(&self, _: usize, _: &Vec<u8>) {}
}

fn a_mistyped_knob_default_is_refused_at_registration_naming_family_and_knob() {
    assert_eq!(
        registration_refusal(backtrack_bench::run::register::<MistypedDefault>),
        "family `mistyped_default`: the default `mod6` of knob `order` is not one of its values (mod3 | mod4)"
    );
    assert!(backtrack_bench::run::Family::from_name("mistyped_default").is_none(), "nothing was registered");
    // A knob named as a command's own flag could never be given: refused here, not by the
    // first command line (which every command of the program would refuse).
    assert_eq!(
        registration_refusal(backtrack_bench::run::register::<MistypedDefault<true>>),
        "family `flag_named_knob`: its knob `first` has the name of a command's own flag (`--first`), so it could \
         never be given and every command would refuse to start; rename the knob"
    );
}

/// The dominoes under another name, whose one short form is `rings` (a built-in instance's
/// name) or `2x3` (which `dominoes` takes).
struct Shadow<const BUILTIN_NAME: bool>;

impl<const BUILTIN_NAME: bool> Puzzle for Shadow<BUILTIN_NAME> {
    const FAMILY: &'static str = if BUILTIN_NAME { "shadow_rings" } else { "shadow_dominoes" };
    const KNOBS: &'static [KnobSpec] = &[];
    const SHORT_FORMS: &'static [&'static str] = if BUILTIN_NAME { &["rings"] } else { &["2x3"] };
    type Config = ();
    type Model = tiles::Board;
    type AnswerKey = ();
    fn parse(_: &serde_json::Value) -> Result<Self, DataError> {
        Ok(Shadow)
    }
    fn config(knobs: &KnobValues) -> Result<(), KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs).map(drop)
    }
    fn describe(_: &()) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    fn models(&self, _: &()) -> Vec<tiles::Board> {
        Vec::new()
    }
    fn answer_key(&self, _: usize, _: &Vec<u8>) {}
    fn instance_from_argument(text: &str) -> Option<serde_json::Value> {
        Self::SHORT_FORMS.contains(&text).then(|| serde_json::json!({}))
    }
}

/// The message of the panic `register` raises, read quietly from the panic itself.
fn registration_refusal(register: fn() -> backtrack_bench::run::Family) -> String {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let panic = std::panic::catch_unwind(register);
    std::panic::set_hook(hook);
    let panic = panic.expect_err("the registration is refused");
    panic.downcast_ref::<String>().expect("a formatted message").clone()
}

fn a_short_form_that_would_never_reach_its_family_is_refused_at_registration() {
    backtrack_bench::run::register::<tiles::Dominoes>();
    assert_eq!(
        registration_refusal(backtrack_bench::run::register::<Shadow<false>>),
        "family `shadow_dominoes`: its short form `2x3` is taken by family `dominoes`, registered before it (an \
         argument goes to the first family that takes it); choose another"
    );
    assert_eq!(
        registration_refusal(backtrack_bench::run::register::<Shadow<true>>),
        "family `shadow_rings`: its short form `rings` is a built-in instance's name (reserved even where a \
         workbench withholds them); choose another"
    );
    for refused in ["shadow_dominoes", "shadow_rings"] {
        assert!(backtrack_bench::run::Family::from_name(refused).is_none(), "{refused} was not registered");
    }
}

/// The dominoes with nothing but the required items: every default in use.
struct Defaults(tiles::Dominoes);

impl Puzzle for Defaults {
    const FAMILY: &'static str = "dominoes_by_default";
    const KNOBS: &'static [KnobSpec] = &[];
    type Config = ();
    type Model = tiles::Board;
    type AnswerKey = ();
    fn parse(data: &serde_json::Value) -> Result<Self, DataError> {
        tiles::Dominoes::parse(data).map(Defaults)
    }
    fn config(knobs: &KnobValues) -> Result<(), KnobError> {
        KnobReader::new(Self::FAMILY, Self::KNOBS, knobs).map(drop)
    }
    fn describe(_: &()) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    fn models(&self, _: &()) -> Vec<tiles::Board> {
        self.0.models(&tiles::FirstTry::Horizontal)
    }
    fn answer_key(&self, _: usize, _: &Vec<u8>) {}
}

fn a_family_of_defaults_only_has_names_text_and_no_drawing() {
    let puzzle = Defaults::parse(&serde_json::json!({ "rows": 2, "columns": 3 })).expect("a 2x3 board");
    assert_eq!(puzzle.component_names(), ["1"]);
    let solution = vec![1, 1, 2, 3, 3, 2];
    assert_eq!(puzzle.solution_text(&solution), "[1, 1, 2, 3, 3, 2]");
    assert_eq!(puzzle.render(&solution), "[1, 1, 2, 3, 3, 2]");
    assert_eq!(puzzle.verify(0, &solution), Ok(()));
    assert_eq!(puzzle.answer_of_solutions(&[vec![solution]]), serde_json::Value::Null);
    let options = backtrack_bench::unstable::watch::WatchOptions {
        delay: std::time::Duration::ZERO,
        max_steps: 5,
        radius: 10,
        aspect: 0.5,
        terminal: false,
        terminal_size: None,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut frames = Vec::new();
    let refused = backtrack_bench::unstable::watch::watch_puzzle(&puzzle, &(), &options, &mut frames, &stop)
        .expect_err("nothing to draw");
    assert!(
        refused.to_string().starts_with("family `dominoes_by_default` has no picture for watch to draw"),
        "{refused}"
    );
    assert!(frames.is_empty(), "nothing was drawn");
}
