//! `--shard auto`: which slice a scheduler's task plays, read from the
//! variables the scheduler sets (docs/scale.md). A Slurm job array gives
//! `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (with
//! `SLURM_ARRAY_TASK_MIN`, `_MAX` and `_STEP` when the array does not run
//! 1, 2, ..., N); a Kubernetes Indexed Job gives `JOB_COMPLETION_INDEX`
//! (0-based) and the count comes from `--shard auto/N` or
//! [`COUNT_VAR`]. Missing or inconsistent variables get a one-line error
//! naming them, never a guess.

use super::plan::Shard;

/// The variable giving the number of shards where the scheduler does not
/// (a Kubernetes Indexed Job: set it to the Job's `completions`).
pub const COUNT_VAR: &str = "RULECHECK_SHARD_COUNT";

/// Whether a `--shard` argument asks for the scheduler's slice.
pub fn is_auto(arg: &str) -> bool {
    let a = arg.trim();
    a == "auto" || a.starts_with("auto/")
}

/// The slice of `--shard auto` or `--shard auto/N`, from the variables
/// `env` returns, with a few words on where it came from.
pub fn auto_shard(
    arg: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(Shard, String), String> {
    let count = asked_count(arg).map_err(|why| format!("--shard auto: {why}"))?;
    let vars = Vars { env };
    let slurm = vars.num("SLURM_ARRAY_TASK_ID")?;
    let k8s = vars.num("JOB_COMPLETION_INDEX")?;
    let counted = vars.num(COUNT_VAR)?;
    let found = match (slurm, k8s) {
        (Some(id), Some(index)) => Err(format!(
            "both a Slurm array task (SLURM_ARRAY_TASK_ID={id}) and a Kubernetes Indexed Job \
             (JOB_COMPLETION_INDEX={index}) are set; give --shard K/N"
        )),
        (None, None) if vars.var("SLURM_JOB_ID").is_some() => Err(
            "this Slurm job is not a job array (SLURM_ARRAY_TASK_ID is not set): \
             submit it with `sbatch --array=1-N`"
                .into(),
        ),
        (None, None) => Err(
            "no scheduler's task index is set (SLURM_ARRAY_TASK_ID of a Slurm job array, or \
             JOB_COMPLETION_INDEX of a Kubernetes Indexed Job); elsewhere give --shard K/N"
                .into(),
        ),
        (Some(id), None) => slurm_task(id, count.or(counted), &vars)?,
        (None, Some(index)) => completion_index(index, count, counted),
    };
    found.map_err(|why| format!("--shard auto: {why}"))
}

/// The N of `auto/N` (`None` for `auto`).
fn asked_count(arg: &str) -> Result<Option<u64>, String> {
    match arg.trim().strip_prefix("auto") {
        Some("") => Ok(None),
        Some(rest) => match rest.strip_prefix('/').map(|n| n.trim().parse::<u64>()) {
            Some(Ok(n)) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "takes `auto` or `auto/N` with N at least 1, not `{arg}`"
            )),
        },
        None => Err(format!("takes `auto` or `auto/N`, not `{arg}`")),
    }
}

/// The scheduler's variables.
struct Vars<'a> {
    env: &'a dyn Fn(&str) -> Option<String>,
}

impl Vars<'_> {
    fn var(&self, name: &str) -> Option<String> {
        (self.env)(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    /// A whole number, if set (an error, already prefixed, if not one).
    fn num(&self, name: &str) -> Result<Option<u64>, String> {
        match self.var(name) {
            None => Ok(None),
            Some(v) => v
                .parse::<u64>()
                .map(Some)
                .map_err(|_| format!("--shard auto: {name} is `{v}`, not a whole number")),
        }
    }
}

type Slice = Result<(Shard, String), String>;

/// The slice of Slurm array task `id`, with `count` shards if asked for.
/// The outer error is a malformed variable (already prefixed); the inner
/// one a reason to refuse.
fn slurm_task(id: u64, count: Option<u64>, vars: &Vars) -> Result<Slice, String> {
    let n = match (vars.num("SLURM_ARRAY_TASK_COUNT")?, count) {
        (Some(n), Some(m)) if n != m => {
            return Ok(Err(format!(
                "the Slurm array has {n} tasks (SLURM_ARRAY_TASK_COUNT) but {m} shards \
                 were asked for"
            )));
        }
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Ok(Err(
                "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; \
                 give --shard auto/N"
                    .into(),
            ));
        }
    };
    if n == 0 {
        return Ok(Err("SLURM_ARRAY_TASK_COUNT is 0".into()));
    }
    let min = vars.num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(1);
    let step = vars.num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
    if step == 0 {
        return Ok(Err("SLURM_ARRAY_TASK_STEP is 0".into()));
    }
    let last = (n - 1).checked_mul(step).and_then(|s| s.checked_add(min));
    if let Some(max) = vars.num("SLURM_ARRAY_TASK_MAX")?
        && Some(max) != last
    {
        return Ok(Err(format!(
            "the Slurm array is not one range: {n} tasks from {min} by {step} do not \
             end at SLURM_ARRAY_TASK_MAX {max}; submit it as `--array=A-B` \
             (or `A-B:STEP`)"
        )));
    }
    if id < min || !(id - min).is_multiple_of(step) {
        let ids = if step == 1 {
            format!("{min} to {min}+{}", n - 1)
        } else {
            format!("{min}, {min}+{step}, ...")
        };
        return Ok(Err(format!(
            "SLURM_ARRAY_TASK_ID {id} is not one of the array's tasks ({ids}); \
             set SLURM_ARRAY_TASK_MIN if the array does not start at 1"
        )));
    }
    let k = (id - min) / step + 1;
    if k > n {
        return Ok(Err(format!(
            "SLURM_ARRAY_TASK_ID {id} is task {k} of an array of {n} \
             (SLURM_ARRAY_TASK_COUNT)"
        )));
    }
    Ok(Ok((Shard { k, n }, format!("Slurm array task {id}"))))
}

/// The slice of Kubernetes completion index `index`, with `count` shards
/// asked for by `auto/N` and `counted` by the count variable.
fn completion_index(index: u64, count: Option<u64>, counted: Option<u64>) -> Slice {
    let n = match (count, counted) {
        (Some(n), Some(m)) if n != m => {
            return Err(format!("auto/{n} but {COUNT_VAR} is {m}"));
        }
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Err(format!(
                "JOB_COMPLETION_INDEX is set but not the number of shards: give \
                 --shard auto/N (N = the Job's completions) or set {COUNT_VAR}"
            ));
        }
    };
    if n == 0 {
        return Err(format!("{COUNT_VAR} is 0"));
    }
    if index >= n {
        return Err(format!(
            "JOB_COMPLETION_INDEX {index} is not below the number of shards {n}"
        ));
    }
    Ok((
        Shard { k: index + 1, n },
        format!("Kubernetes completion index {index}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(arg: &str, vars: &[(&str, &str)]) -> Result<(u64, u64), String> {
        let env = |name: &str| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        };
        auto_shard(arg, &env).map(|(s, _)| (s.k, s.n))
    }

    #[test]
    fn slurm_arrays() {
        let base = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(run("auto", &base), Ok((3, 4)));
        assert_eq!(run("auto/4", &base), Ok((3, 4)));
        assert!(run("auto/5", &base).unwrap_err().contains("4 tasks"));
        // --array=0-3
        let zero = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ];
        assert_eq!(run("auto", &zero), Ok((1, 4)));
        // --array=10-16:2
        let step = [
            ("SLURM_ARRAY_TASK_ID", "14"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "16"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(run("auto", &step), Ok((3, 4)));
        // --array=1,3,7: not one range
        let holes = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
        ];
        assert!(run("auto", &holes).unwrap_err().contains("not one range"));
        let id0 = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(
            run("auto", &id0)
                .unwrap_err()
                .contains("SLURM_ARRAY_TASK_MIN")
        );
        let past = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(
            run("auto", &past)
                .unwrap_err()
                .contains("task 5 of an array of 4")
        );
        let no_count = [("SLURM_ARRAY_TASK_ID", "2")];
        assert!(
            run("auto", &no_count)
                .unwrap_err()
                .contains("SLURM_ARRAY_TASK_COUNT is not")
        );
        assert_eq!(run("auto/4", &no_count), Ok((2, 4)));
        let junk = [
            ("SLURM_ARRAY_TASK_ID", "two"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(
            run("auto", &junk)
                .unwrap_err()
                .contains("`two`, not a whole number")
        );
        let not_array = [("SLURM_JOB_ID", "17")];
        assert!(
            run("auto", &not_array)
                .unwrap_err()
                .contains("not a job array")
        );
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let job = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(run("auto/4", &job), Ok((1, 4)));
        let counted = [("JOB_COMPLETION_INDEX", "3"), (COUNT_VAR, "4")];
        assert_eq!(run("auto", &counted), Ok((4, 4)));
        assert!(run("auto/5", &counted).unwrap_err().contains("auto/5 but"));
        assert!(run("auto", &job).unwrap_err().contains("--shard auto/N"));
        assert!(
            run("auto/2", &[("JOB_COMPLETION_INDEX", "2")])
                .unwrap_err()
                .contains("not below")
        );
    }

    #[test]
    fn nothing_or_both_or_bad_arguments() {
        assert!(
            run("auto", &[])
                .unwrap_err()
                .contains("no scheduler's task index")
        );
        let both = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
            ("JOB_COMPLETION_INDEX", "0"),
        ];
        assert!(run("auto", &both).unwrap_err().contains("both"));
        assert!(run("auto/0", &[]).unwrap_err().contains("at least 1"));
        assert!(run("auto/x", &[]).unwrap_err().contains("at least 1"));
        assert!(is_auto("auto") && is_auto("auto/3") && !is_auto("1/3"));
    }
}
