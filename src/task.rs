//! Task slices: which inputs of a crawl one task of a batch job processes.
//!
//! A crawl of tens of thousands of WARC files is run as an *array* of identical tasks (a Slurm
//! job array, a Kubernetes indexed Job, an AWS Batch array job), each started with its own
//! index. **Task `I` of `N` takes inputs `I, I+N, I+2N, ...`** (0-based, in the order the
//! inputs were given: positional inputs first, then the manifest's lines). Round-robin rather
//! than contiguous blocks, so that a crawl listed segment by segment spreads every segment over
//! all tasks, and every task's share differs from any other's by at most one input.
//!
//! The index and count come from `--task-index` / `--task-count` when given (explicit flags
//! always win, each on its own), otherwise from the scheduler's environment, checked in this
//! order:
//!
//! | scheduler | index | count |
//! |---|---|---|
//! | Slurm job array | `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` (÷ `SLURM_ARRAY_TASK_STEP`) | `SLURM_ARRAY_TASK_COUNT`, or `(MAX − MIN) ÷ STEP + 1` |
//! | Kubernetes indexed Job | `JOB_COMPLETION_INDEX` | `--task-count` (the Job's `spec.completions`) |
//! | AWS Batch array job | `AWS_BATCH_JOB_ARRAY_INDEX` | `--task-count` (the array's `size`) |
//!
//! With neither flags nor a scheduler's variables there is no slicing: one process takes
//! every input (and writes `stats.json` / `errors.jsonl`, not per-task files).
//!
//! Refuses, each with a sentence: a count of 0, an index not below the count, a value that is
//! not a whole number, one of index/count without the other, and a Slurm array that is not an
//! evenly stepped range (`--array=1,5,9`: pass `--task-index`/`--task-count` then).

/// One task's place in the array: `index` in `0..count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskSlice {
    pub index: usize,
    pub count: usize,
}

impl TaskSlice {
    /// A checked slice: `count ≥ 1` and `index < count`.
    pub fn new(index: usize, count: usize) -> Result<TaskSlice, String> {
        if count == 0 {
            return Err("the task count is 0; there must be at least one task".into());
        }
        if index >= count {
            return Err(format!(
                "the task index {index} is not below the task count {count}; \
                 indexes run from 0 to {}",
                count - 1
            ));
        }
        Ok(TaskSlice { index, count })
    }

    /// Whether the input at position `i` of the full list belongs to this task.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count == self.index
    }

    /// The items of this task: positions `index, index + count, ...` of `items`.
    pub fn select<T>(&self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.takes(*i))
            .map(|(_, x)| x)
            .collect()
    }

    /// `task-0003` (at least four digits, more when the count needs them), used to name the
    /// per-task `stats-task-0003.json` and `errors-task-0003.jsonl`.
    pub fn label(&self) -> String {
        let width = (self.count.saturating_sub(1)).to_string().len().max(4);
        format!("task-{:0width$}", self.index)
    }
}

/// Where a task's index came from, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Flags,
    Slurm,
    Kubernetes,
    AwsBatch,
}

/// Resolve the task slice from explicit flags and the environment (read through `env`, so
/// tests need not touch the process environment). `Ok(None)`: no slicing.
pub fn resolve(
    index_flag: Option<usize>,
    count_flag: Option<usize>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<(TaskSlice, Source)>, String> {
    let (env_index, env_count, source) = from_env(&env)?;
    let index = index_flag.or(env_index);
    let count = count_flag.or(env_count);
    let source = if index_flag.is_some() {
        Source::Flags
    } else {
        source
    };
    match (index, count) {
        (None, None) => Ok(None),
        (Some(i), Some(n)) => TaskSlice::new(i, n).map(|s| Some((s, source))),
        (None, Some(_)) => Err(
            "--task-count is given but no task index: pass --task-index, \
             or run inside a job array (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or \
             AWS_BATCH_JOB_ARRAY_INDEX)"
                .into(),
        ),
        (Some(_), None) => Err(match source {
            Source::Kubernetes => "JOB_COMPLETION_INDEX is set (a Kubernetes indexed Job) but the \
                                   task count is not: pass --task-count with the Job's \
                                   spec.completions"
                .into(),
            Source::AwsBatch => "AWS_BATCH_JOB_ARRAY_INDEX is set (an AWS Batch array job) but \
                                 the task count is not: pass --task-count with the array's size"
                .into(),
            _ => "--task-index is given but no task count: pass --task-count".into(),
        }),
    }
}

type EnvSlice = (Option<usize>, Option<usize>, Source);

/// Index and count from the first scheduler whose variables are set.
fn from_env(env: &impl Fn(&str) -> Option<String>) -> Result<EnvSlice, String> {
    let num = |name: &str| -> Result<Option<usize>, String> {
        match env(name) {
            None => Ok(None),
            Some(v) if v.trim().is_empty() => Ok(None),
            Some(v) => v
                .trim()
                .parse::<usize>()
                .map(Some)
                .map_err(|_| format!("{name}={v:?} is not a whole number (0, 1, 2, ...)")),
        }
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let max = num("SLURM_ARRAY_TASK_MAX")?;
        let listed = num("SLURM_ARRAY_TASK_COUNT")?;
        if id < min {
            return Err(format!(
                "SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={min}"
            ));
        }
        if (id - min) % step != 0 {
            return Err(format!(
                "SLURM_ARRAY_TASK_ID={id} is not on the array's step {step} from {min}; \
                 pass --task-index and --task-count"
            ));
        }
        let index = (id - min) / step;
        let stepped = max.filter(|&m| m >= min).map(|m| (m - min) / step + 1);
        let count = match (listed, stepped) {
            (Some(c), Some(s)) if c != s => {
                return Err(format!(
                    "the Slurm array is not an evenly stepped range (ids {min} to {} by {step} \
                     would be {s} tasks, but SLURM_ARRAY_TASK_COUNT={c}); pass --task-index and \
                     --task-count",
                    max.unwrap_or(min)
                ))
            }
            (Some(c), _) => Some(c),
            (None, s) => s,
        };
        return Ok((Some(index), count, Source::Slurm));
    }
    if let Some(i) = num("JOB_COMPLETION_INDEX")? {
        return Ok((Some(i), None, Source::Kubernetes));
    }
    if let Some(i) = num("AWS_BATCH_JOB_ARRAY_INDEX")? {
        return Ok((Some(i), None, Source::AwsBatch));
    }
    Ok((None, None, Source::Flags))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    fn slice(r: Result<Option<(TaskSlice, Source)>, String>) -> (usize, usize) {
        let (s, _) = r.unwrap().unwrap();
        (s.index, s.count)
    }

    #[test]
    fn round_robin_covers_every_input_once() {
        for count in 1..7 {
            let mut seen = vec![0; 23];
            for index in 0..count {
                let s = TaskSlice::new(index, count).unwrap();
                for i in s.select((0..23).collect::<Vec<_>>()) {
                    seen[i] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "count {count}: {seen:?}");
        }
        let s = TaskSlice::new(1, 4).unwrap();
        assert_eq!(s.select((0..10).collect::<Vec<_>>()), vec![1, 5, 9]);
    }

    #[test]
    fn labels_sort_and_widen() {
        assert_eq!(TaskSlice::new(3, 4).unwrap().label(), "task-0003");
        assert_eq!(TaskSlice::new(3, 90_000).unwrap().label(), "task-00003");
        assert_eq!(TaskSlice::new(0, 1).unwrap().label(), "task-0000");
    }

    #[test]
    fn nothing_set_means_no_slicing() {
        assert_eq!(resolve(None, None, env(&[])).unwrap(), None);
    }

    #[test]
    fn slurm_variables() {
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "2"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
        ]);
        assert_eq!(slice(resolve(None, None, e)), (3, 8));
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(slice(resolve(None, None, e)), (3, 4));
        // --array=0-10:2 → ids 0,2,...,10: six tasks.
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "10"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "6"),
        ]);
        assert_eq!(slice(resolve(None, None, e)), (2, 6));
        // --array=1,5,9: not a range.
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        let err = resolve(None, None, e).unwrap_err();
        assert!(err.contains("not an evenly stepped range"), "{err}");
    }

    #[test]
    fn flags_win_each_on_its_own() {
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(slice(resolve(Some(0), Some(2), &e)), (0, 2));
        assert_eq!(slice(resolve(None, Some(8), &e)), (1, 8));
        let (_, source) = resolve(Some(2), None, &e).unwrap().unwrap();
        assert_eq!(source, Source::Flags);
    }

    #[test]
    fn kubernetes_and_aws_need_a_count() {
        let k = env(&[("JOB_COMPLETION_INDEX", "7")]);
        let err = resolve(None, None, &k).unwrap_err();
        assert!(err.contains("JOB_COMPLETION_INDEX") && err.contains("--task-count"));
        assert_eq!(slice(resolve(None, Some(10), &k)), (7, 10));
        let a = env(&[("AWS_BATCH_JOB_ARRAY_INDEX", "0")]);
        assert!(resolve(None, None, &a).unwrap_err().contains("AWS Batch"));
        assert_eq!(slice(resolve(None, Some(3), &a)), (0, 3));
    }

    #[test]
    fn inconsistent_values_are_sentences() {
        let none = env(&[]);
        assert_eq!(
            resolve(Some(4), Some(4), &none).unwrap_err(),
            "the task index 4 is not below the task count 4; indexes run from 0 to 3"
        );
        assert!(resolve(Some(0), Some(0), &none)
            .unwrap_err()
            .starts_with("the task count is 0"));
        assert!(resolve(None, Some(3), &none)
            .unwrap_err()
            .contains("no task index"));
        assert!(resolve(Some(1), None, &none)
            .unwrap_err()
            .contains("no task count"));
        let bad = env(&[("JOB_COMPLETION_INDEX", "x1")]);
        assert_eq!(
            resolve(None, Some(2), &bad).unwrap_err(),
            "JOB_COMPLETION_INDEX=\"x1\" is not a whole number (0, 1, 2, ...)"
        );
        let e = env(&[
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert!(resolve(None, None, &e)
            .unwrap_err()
            .contains("index 9 is not below the task count 4"));
    }
}
