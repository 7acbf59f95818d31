//! `scaling-check`: the scaling prediction against measured runs on this machine, for the
//! enumeration workloads (see docs/scaling.md). The prediction is calibrated per CPU: the
//! sequential search is timed on each CPU in turn, the calling thread pinned there, and each
//! virtual worker runs at the factor of the CPU its thread is pinned to. Every timing and
//! cost behind the table goes to measurements.json, and `--from` analyses such a file again
//! without measuring, so that a miss can be taken apart after the machine is gone. The
//! analysis and the files written are `scaling_check_analysis`'s.

use super::args::ScalingCheckArgs;
use super::failure::Failure;
use super::predicted_strategy::{parse_strategy, refuse_branch_and_bound, shape_of};
use super::scaling_check_analysis::{
    file_refusal, write_check, CheckContext, ComponentCosts, MachineSeen, TimedRuns, Workload, WorkloadMeasurements,
    CHECK_FILES,
};
use crate::environment::Environment;
use crate::files::bounded_read::{read_bounded, special_file_at, ReadKind};
use crate::harness::storing::output_target::named_file_target;
use crate::knobs::KnobValues;
use crate::machine_guard::available_cpus;
use crate::parallel::{check_thread_count, ThreadAffinity};
use crate::run::instance::{self, Instance};
use crate::run::thread_list::{check_the_cap, parse_thread_list, resolve_thread_list};
use crate::run::{self, Calibration, Prepared, RunSettings};
use crate::scaling::cpu_speeds::{CpuFactors, Placement};
use crate::stderr_line::note;
use std::path::Path;

/// Runs the check, or with `--from` the analysis of an earlier one.
pub fn run(args: &ScalingCheckArgs) -> Result<(), Failure> {
    let settings = RunSettings::default();
    let placement = match settings.affinity {
        ThreadAffinity::Pinned => Placement::Pinned,
        ThreadAffinity::Free => Placement::Moved,
    };
    // Refused before the measuring, which takes minutes: an --out that is not a folder, or
    // a name of the check's files held by a folder, a FIFO or a device.
    Failure::unless_out_folder(&args.out, "check's")?;
    for name in CHECK_FILES {
        named_file_target(&args.out.join(name)).map_err(Failure::bad_input)?;
    }
    refuse_empty_names("--instances", &args.instances)?;
    let command = super::command_line();
    let (workloads, machine, measured_by) = match &args.from {
        Some(path) => from_file(path, &args.instances)?,
        None => {
            let (workloads, machine) = measure_here(args, &command)?;
            (workloads, machine, command.clone())
        }
    };
    std::fs::create_dir_all(&args.out)
        .map_err(|error| Failure::failed(format!("cannot create the output folder {}: {error}", args.out.display())))?;
    let analysed_by = args.from.is_some().then_some(command.as_str());
    write_check(&workloads, &CheckContext { machine, command: &measured_by, analysed_by, placement }, &args.out)
}

/// Measures every instance of `args` on this machine: the calibration, then `repeats`
/// rounds of every configuration and of the sequential search on each CPU.
fn measure_here(args: &ScalingCheckArgs, command: &str) -> Result<(Vec<Workload>, MachineSeen), Failure> {
    let threads = parse_thread_list(&args.threads).map_err(|e| Failure::bad_input(format!("--threads: {e}")))?;
    refuse_empty_names("--strategies", &args.strategies)?;
    // The flag is named: the parser's own message names only the value.
    let strategies = args
        .strategies
        .iter()
        .map(|name| parse_strategy(name).and_then(|strategy| shape_of(strategy).map(|_| strategy)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|failure| Failure { message: format!("--strategies: {}", failure.message), ..failure })?;
    let cpus = available_cpus();
    // Refused before the first instance's recording and calibration, which take a while.
    check_the_cap(&threads, cpus)
        .map_err(|refused| Failure::bad_input(format!("--threads {}: {refused}", args.threads)))?;
    // A count or strategy listed twice (`1,1`, `1..4,2`) is measured once, as a sweep runs
    // it: twice, it wrote the same comparison rows twice.
    let threads = first_of_each(resolve_thread_list(&threads, cpus));
    let strategies = first_of_each(strategies);
    let repeats = args.repeats as usize;
    let machine = MachineSeen { processor: Environment::detect().cpu_model, cpus };
    let cpu_list = if args.one_cpu { None } else { CpuPinning::allowed() };
    let mut workloads = Vec::new();
    for (source, instance, prepared) in prepare_all(&args.instances)? {
        note!("scaling-check: {}: recording and calibrating", instance.id);
        let calibration = Calibration { rule_counts: false, rounds: repeats, copies: cpus };
        let components = prepared.measure(Some(calibration))?;
        // As explain measures: no per-rule counts, one solution kept.
        let base = RunSettings { rule_counts: false, solutions_to_keep: 1, ..RunSettings::default() };
        let mut configs = vec![base.clone()];
        for strategy in &strategies {
            for &count in &threads {
                configs.push(RunSettings { strategy: *strategy, threads: count, ..base.clone() });
            }
        }
        let mut times: Vec<Vec<u64>> = vec![Vec::new(); configs.len()];
        let mut cpu_times: Vec<Vec<u64>> = vec![Vec::new(); cpu_list.as_ref().map_or(0, |list| list.cpus.len())];
        prepared.solve(&base)?;
        for round in 0..repeats {
            note!("scaling-check: {}: round {} of {repeats}", instance.id, round + 1);
            for (config, times) in configs.iter().zip(&mut times) {
                times.push(prepared.solve(config)?.elapsed_ns);
            }
            // In the same rounds as the runs, so that a CPU that turns slow touches both.
            if let Some(list) = &cpu_list {
                for (&cpu, times) in list.cpus.iter().zip(&mut cpu_times) {
                    if let Some(report) = list.on(cpu, || prepared.solve(&base)).transpose()? {
                        times.push(report.elapsed_ns);
                    }
                }
            }
        }
        let factors = cpu_list.as_ref().and_then(|list| CpuFactors::from_times(&list.cpus, &cpu_times));
        let measurements = WorkloadMeasurements {
            workload: instance.id.clone(),
            source: Some(source.clone()),
            machine: Some(machine.clone()),
            command: Some(command.to_string()),
            components: components
                .iter()
                .map(|component| ComponentCosts {
                    name: component.name.clone(),
                    nodes: component.tree.total_nodes(),
                    costs: component.costs,
                })
                .collect(),
            cpu_times_ns: cpu_list.iter().flat_map(|list| list.cpus.iter().copied().zip(cpu_times.clone())).collect(),
            cpu_factors: factors,
            runs: configs
                .iter()
                .zip(times)
                .map(|(config, times_ns)| TimedRuns {
                    strategy: config.strategy.to_string(),
                    threads: config.threads,
                    times_ns,
                })
                .collect(),
        };
        workloads.push(Workload { measurements, components });
    }
    Ok((workloads, machine))
}

/// An instance to measure: its name as listed, the instance, and its prepared models.
type ReadyWorkload<'a> = (&'a String, Instance, Box<dyn Prepared>);

/// Every instance of `sources` loaded, prepared with the default knobs and checked for an
/// objective, before any is measured: one that failed after the first was measured for
/// minutes threw that work away. An instance listed twice (by id) is kept once: its plot and
/// rows are named by its id, and a second copy overwrote them.
fn prepare_all(sources: &[String]) -> Result<Vec<ReadyWorkload<'_>>, Failure> {
    let mut prepared_all: Vec<ReadyWorkload<'_>> = Vec::new();
    for source in sources {
        // The default workloads are files of the source tree: found from any folder.
        let instance = instance::load_here_or_in_the_crate(source)?;
        if prepared_all.iter().any(|(_, earlier, _)| earlier.id == instance.id) {
            note!("scaling-check: {source}: instance `{}` is listed already; measured once", instance.id);
            continue;
        }
        let prepared = run::prepare(&instance, &KnobValues::new())?;
        refuse_branch_and_bound(prepared.as_ref(), source)?;
        prepared_all.push((source, instance, prepared));
    }
    Ok(prepared_all)
}

/// Refuses an empty name in a comma-separated `flag`'s list (`a,,b`, a trailing comma, or
/// `''`): read as a path, it named the working folder (or the crate's) in the error.
fn refuse_empty_names(flag: &str, names: &[String]) -> Result<(), Failure> {
    if names.iter().any(|name| name.trim().is_empty()) {
        return Err(Failure::bad_input(format!(
            "{flag}: the list has an empty name (an empty value, two commas in a row, or a comma at an end); \
             name each one"
        )));
    }
    Ok(())
}

/// An earlier check's measurements, each workload's trees recorded again here (the search
/// is deterministic: the same nodes on any machine) and given the costs measured there.
/// A file of a check older than `--from` names no instance source, machine or command: the
/// instances of `--instances` are matched by id, and the machine and command are read from
/// the README that check wrote beside the file, where there is one. Returns the workloads,
/// the machine and the command that measured them.
fn from_file(path: &Path, instances: &[String]) -> Result<(Vec<Workload>, MachineSeen, String), Failure> {
    let bytes =
        read_bounded(path, ReadKind::Measurements).map_err(|refused| Failure::bad_input(refused.to_string()))?;
    let stored: Vec<WorkloadMeasurements> = serde_json::from_slice(&bytes).map_err(|error| {
        Failure::bad_input(format!(
            "{}: line {}: not a scaling check's measurements: {error}",
            path.display(),
            error.line()
        ))
    })?;
    if stored.is_empty() {
        return Err(Failure::bad_input(format!("{}: no workload measured", path.display())));
    }
    if let Some(refused) = file_refusal(&stored) {
        return Err(Failure::bad_input(format!("{}: {refused}", path.display())));
    }
    let beside = EarlierReadme::beside(path);
    let machine = stored.iter().find_map(|workload| workload.machine.clone()).or_else(|| beside.machine());
    // Each CPU the process could use was timed, unless the check ran with `--one-cpu`.
    let timed_cpus = stored.iter().map(|workload| workload.cpu_times_ns.len()).max().unwrap_or(0);
    let machine = match machine {
        Some(machine) => machine,
        None if timed_cpus > 0 => MachineSeen {
            processor: "the earlier check's machine (not named in its files)".to_string(),
            cpus: timed_cpus,
        },
        None => {
            return Err(Failure::bad_input(format!(
                "{}: names no machine, times no CPU one by one, and has no README.md beside it that names one: \
                 the CPU count the prediction needs is unknown",
                path.display()
            )))
        }
    };
    check_thread_count(machine.cpus)
        .map_err(|error| Failure::bad_input(format!("{}: the machine's CPUs: {error}", path.display())))?;
    let measured_by = stored
        .iter()
        .find_map(|workload| workload.command.clone())
        .or_else(|| beside.command().map(str::to_string))
        .unwrap_or_else(|| "not recorded".to_string());
    let mut workloads = Vec::new();
    for mut measurements in stored {
        let instance = instance_of(&measurements, instances)?;
        if instance.id != measurements.workload {
            return Err(Failure::bad_input(format!(
                "{}: workload {} was measured on {}, whose id is {}",
                path.display(),
                measurements.workload,
                instance.source,
                instance.id
            )));
        }
        measurements.source = Some(instance.source.clone());
        let prepared = run::prepare(&instance, &KnobValues::new())?;
        let mut components = prepared.measure(None)?;
        if components.len() != measurements.components.len() {
            return Err(Failure::bad_input(format!(
                "{}: {} has {} components here and {} in the file",
                path.display(),
                instance.id,
                components.len(),
                measurements.components.len()
            )));
        }
        for (component, stored) in components.iter_mut().zip(&measurements.components) {
            let nodes = component.tree.total_nodes();
            if component.name != stored.name || nodes != stored.nodes {
                return Err(Failure::bad_input(format!(
                    "{}: component {} ({} nodes) does not match {} ({nodes} nodes) searched here",
                    path.display(),
                    stored.name,
                    stored.nodes,
                    component.name
                )));
            }
            component.costs = stored.costs;
            // Files older than the worker's own node cost: a worker's node as the search's.
            if component.costs.steered_node_ns == 0.0 {
                component.costs.steered_node_ns = component.costs.node_ns;
            }
        }
        workloads.push(Workload { measurements, components });
    }
    Ok((workloads, machine, measured_by))
}

/// The README an earlier check wrote beside its measurements.json (empty where there is
/// none): its machine and command lines name what an older file does not.
struct EarlierReadme(String);

impl EarlierReadme {
    fn beside(measurements: &Path) -> EarlierReadme {
        let readme = measurements.with_file_name("README.md");
        let bytes = read_bounded(&readme, ReadKind::Measurements).unwrap_or_default();
        EarlierReadme(String::from_utf8(bytes).unwrap_or_default())
    }

    fn line(&self, label: &str) -> Option<&str> {
        self.0.lines().find_map(|line| line.strip_prefix(label))
    }

    /// The processor and CPUs of `- Machine: PROCESSOR, N CPUs available; ...`.
    fn machine(&self) -> Option<MachineSeen> {
        let (before, _) = self.line("- Machine: ")?.split_once(" CPUs available")?;
        let (processor, cpus) = before.rsplit_once(", ")?;
        Some(MachineSeen { processor: processor.to_string(), cpus: cpus.parse().ok()? })
    }

    /// The command of ``- Command: `COMMAND` ...``.
    fn command(&self) -> Option<&str> {
        self.line("- Command: `")?.split('`').next()
    }
}

/// The instance a workload was measured on: its recorded source, or where that does not
/// load here (a path on the machine that measured) or none is recorded, the one of
/// `instances` with its id.
fn instance_of(measurements: &WorkloadMeasurements, instances: &[String]) -> Result<Instance, Failure> {
    let recorded = match &measurements.source {
        // The file names the source, not the user: a FIFO or a device there would hold the
        // command on a read nobody asked for.
        Some(source) => match special_file_at(source) {
            Some(what) => format!("its instance {source} is {what}, not a regular file"),
            None => match instance::load(source) {
                Ok(instance) => return Ok(instance),
                Err(error) => format!("its instance {source} does not load here ({error})"),
            },
        },
        None => "names no instance".to_string(),
    };
    let with_its_id = instances
        .iter()
        .filter_map(|source| instance::load(source).ok())
        .find(|instance| instance.id == measurements.workload);
    with_its_id.ok_or_else(|| {
        Failure::bad_input(format!(
            "workload {}: {recorded}, and none of --instances has its id",
            measurements.workload
        ))
    })
}

/// The CPUs this process may run on, in the order the pool pins its threads to them, and
/// the calling thread's own mask to restore after timing on one of them.
struct CpuPinning {
    cpus: Vec<usize>,
    mask: libc::cpu_set_t,
}

impl CpuPinning {
    /// `None` where the mask cannot be read (the check then predicts with one CPU's costs).
    fn allowed() -> Option<CpuPinning> {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity writes into the
        // set whose size it is given.
        let mut mask: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mask) } != 0 {
            return None;
        }
        let cpus: Vec<usize> =
            (0..libc::CPU_SETSIZE as usize).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &mask) }).collect();
        (!cpus.is_empty()).then_some(CpuPinning { cpus, mask })
    }

    /// Runs `job` with the calling thread pinned to `cpu`, then gives the thread its mask
    /// back: a pool built while it was pinned would put every thread on that one CPU (its
    /// threads pin themselves to the CPUs their creator may use). `None`, without running
    /// `job`, when the thread cannot be pinned there (that CPU then has no timing, and the
    /// check predicts with one CPU's costs).
    fn on<T>(&self, cpu: usize, job: impl FnOnce() -> T) -> Option<T> {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: as above; both sets are built here and passed with their size.
        let pinned = unsafe {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            libc::sched_setaffinity(0, size, &one) == 0
        };
        let result = pinned.then(job);
        // SAFETY: as above.
        unsafe { libc::sched_setaffinity(0, size, &self.mask) };
        result
    }
}

/// `items` with every repeat of an earlier item left out, in their order.
pub(super) fn first_of_each<T: PartialEq>(items: Vec<T>) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        if !kept.contains(&item) {
            kept.push(item);
        }
    }
    kept
}
