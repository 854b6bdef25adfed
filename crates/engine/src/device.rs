//! Choosing a backend (`--device auto|cpu|gpu`) and listing the adapters wgpu can see.

use std::str::FromStr;

use super::{CostModel, CpuEngine, Engine, EngineError, Precision, cache_dir, calibration_file};
#[cfg(feature = "gpu")]
use super::{
    FailoverEngine, GpuEngine, GpuOptions, RoutedEngine,
    gpu::{backends, device_rank, instance},
};

/// Fault injection for tests of GPU loss: the device is destroyed after this many operations.
#[cfg(feature = "fault-injection")]
const FAULT_ENV: &str = "BOSWEEP_FAULT_GPU_LOSS_AFTER";

/// Which backend a command runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeviceChoice {
    /// A hardware GPU when one exists, else the CPU backend.
    #[default]
    Auto,
    /// The rayon CPU backend (f64).
    Cpu,
    /// Any GPU adapter, software ones (lavapipe) included; an error when there is none.
    Gpu,
}

impl FromStr for DeviceChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "cpu" => Ok(Self::Cpu),
            "gpu" => Ok(Self::Gpu),
            other => Err(format!(
                "unknown device '{other}' (expected auto, cpu or gpu)"
            )),
        }
    }
}

/// Whether calls are routed by size between the GPU and the CPU backend (`--route`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Each call where the cost model says it runs faster ([`RoutedEngine`]).
    Auto,
    /// Every call on the GPU.
    Gpu,
}

impl FromStr for Route {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Self::Auto),
            "gpu" => Ok(Self::Gpu),
            other => Err(format!("unknown route '{other}' (expected auto or gpu)")),
        }
    }
}

/// Refuses every call on the GPU (`route` `Gpu`) asked of the CPU backend, which has none to
/// route them to, rather than ignore one of the two settings.
fn check_route(choice: DeviceChoice, route: Option<Route>) -> Result<(), EngineError> {
    if choice == DeviceChoice::Cpu && route == Some(Route::Gpu) {
        return Err(EngineError::invalid(
            "route gpu with device cpu: the CPU backend has no GPU to send calls to; drop the \
             route, or choose device auto or gpu",
        ));
    }
    Ok(())
}

/// Opens the engine `choice` asks for. With `Auto`, a missing hardware GPU silently means the
/// CPU backend, a GPU that fails mid-run hands over to the CPU backend ([`FailoverEngine`]), and
/// calls are routed by size unless `route` says `Gpu`; with `Gpu`, either failure is an error
/// and every call runs on the GPU unless `route` says `Auto`. A routed engine reads its cost
/// model from the calibration `bosweep calibrate` stored for this GPU and CPU, else takes the
/// conservative default.
#[cfg(feature = "gpu")]
pub fn select_engine(
    choice: DeviceChoice,
    precision: Precision,
    route: Option<Route>,
) -> Result<Box<dyn Engine>, EngineError> {
    let options = GpuOptions {
        precision,
        coalesce: coalesce_from_env()?,
        coalesce_window: coalesce_window_from_env()?,
        #[cfg(feature = "fault-injection")]
        lose_device_after: injected_gpu_loss()?,
        ..Default::default()
    };
    check_route(choice, route)?;
    match choice {
        DeviceChoice::Cpu => Ok(Box::new(CpuEngine::new())),
        DeviceChoice::Gpu => {
            let gpu = GpuEngine::new(&options)?;
            match route {
                Some(Route::Auto) => routed(Box::new(gpu)),
                Some(Route::Gpu) | None => Ok(Box::new(gpu)),
            }
        }
        DeviceChoice::Auto => match GpuEngine::new(&GpuOptions {
            hardware_only: true,
            ..options
        }) {
            Ok(gpu) => {
                let gpu = Box::new(FailoverEngine::new(gpu));
                match route {
                    Some(Route::Auto) | None => routed(gpu),
                    Some(Route::Gpu) => Ok(gpu),
                }
            }
            Err(_) => Ok(Box::new(CpuEngine::new())),
        },
    }
}

/// The variable that turns coalescing off ([`GpuOptions::coalesce`]).
pub const COALESCE_ENV: &str = "BOSWEEP_COALESCE";

/// `BOSWEEP_COALESCE`: `on` (the default where unset) or `off`.
#[cfg(feature = "gpu")]
fn coalesce_from_env() -> Result<bool, EngineError> {
    match std::env::var(COALESCE_ENV).as_deref() {
        Err(_) | Ok("on") => Ok(true),
        Ok("off") => Ok(false),
        Ok(other) => Err(EngineError::invalid(format!(
            "{COALESCE_ENV}: value \"{other}\" is neither on nor off"
        ))),
    }
}

/// The variable that sets the gathering window ([`GpuOptions::coalesce_window`]).
pub const COALESCE_WINDOW_ENV: &str = "BOSWEEP_COALESCE_WINDOW_US";

/// `BOSWEEP_COALESCE_WINDOW_US`: whole microseconds, at most one second (zero where unset).
#[cfg(feature = "gpu")]
fn coalesce_window_from_env() -> Result<std::time::Duration, EngineError> {
    let Ok(text) = std::env::var(COALESCE_WINDOW_ENV) else {
        return Ok(std::time::Duration::ZERO);
    };
    match text.trim().parse::<u64>() {
        Ok(us) if us <= 1_000_000 => Ok(std::time::Duration::from_micros(us)),
        _ => Err(EngineError::invalid(format!(
            "{COALESCE_WINDOW_ENV}: value \"{text}\" is not a whole number of microseconds \
             from 0 to 1000000"
        ))),
    }
}

/// `gpu` beside the CPU backend, routed by the stored calibration of the pair or the default.
#[cfg(feature = "gpu")]
fn routed(gpu: Box<dyn Engine>) -> Result<Box<dyn Engine>, EngineError> {
    let model = stored_model(gpu.identity().as_str(), &CpuEngine::new().describe())?;
    Ok(Box::new(RoutedEngine::new(gpu, model.unwrap_or_default())))
}

/// The cost model `bosweep calibrate` stored for this GPU and CPU, where there is one; a
/// malformed one is an error naming its file and line.
pub fn stored_model(gpu: &str, cpu: &str) -> Result<Option<CostModel>, EngineError> {
    let Some(dir) = cache_dir() else {
        return Ok(None);
    };
    let path = calibration_file(&dir, gpu, cpu);
    match std::fs::read_to_string(&path) {
        Ok(text) => CostModel::parse(&text, &path)
            .map(Some)
            .map_err(EngineError::invalid),
        Err(_) => Ok(None),
    }
}

/// Without the `gpu` feature there is only the CPU backend: `Auto` picks it and `Gpu` is an
/// error that says why.
#[cfg(not(feature = "gpu"))]
pub fn select_engine(
    choice: DeviceChoice,
    _precision: Precision,
    route: Option<Route>,
) -> Result<Box<dyn Engine>, EngineError> {
    check_route(choice, route)?;
    match choice {
        DeviceChoice::Cpu | DeviceChoice::Auto => Ok(Box::new(CpuEngine::new())),
        DeviceChoice::Gpu => Err(EngineError::gpu(
            "this build has no GPU backend (bosweep-engine was compiled without its `gpu` feature)",
        )),
    }
}

/// The operation count of [`FAULT_ENV`], when set.
#[cfg(feature = "fault-injection")]
fn injected_gpu_loss() -> Result<Option<usize>, EngineError> {
    match std::env::var(FAULT_ENV) {
        Err(_) => Ok(None),
        Ok(value) => value.trim().parse().map(Some).map_err(|_| {
            EngineError::invalid(format!(
                "{FAULT_ENV}: value \"{value}\" is not an operation count"
            ))
        }),
    }
}

/// What `bosweep devices` prints about one adapter.
#[derive(Clone, Debug)]
pub struct AdapterSummary {
    /// The adapter's name as the driver gives it (`NVIDIA H200`, `llvmpipe …`).
    pub name: String,
    /// The graphics API it is reached through (`Vulkan`, `Metal`, …).
    pub backend: String,
    /// Discrete, integrated, virtual, CPU (software) or other.
    pub device_type: String,
    /// Driver name and version.
    pub driver: String,
    /// Whether it runs f64 shaders (`--precision f64`).
    pub shader_f64: bool,
    /// Largest storage binding, in bytes: the engine splits larger work into chunks.
    pub max_storage_binding: u64,
    /// Largest buffer, in bytes.
    pub max_buffer: u64,
    /// Workgroup shared memory, in bytes.
    pub max_workgroup_storage: u32,
    /// Threads per workgroup.
    pub max_invocations: u32,
    /// Whether `--device auto` would pick this adapter (the best hardware one).
    pub auto_choice: bool,
}

/// Every adapter on the backends the engine uses, best first (none without the `gpu` feature).
#[cfg(not(feature = "gpu"))]
pub fn list_adapters() -> Vec<AdapterSummary> {
    Vec::new()
}

/// Every adapter on the backends the engine uses, best first.
#[cfg(feature = "gpu")]
pub fn list_adapters() -> Vec<AdapterSummary> {
    let mut adapters = pollster::block_on(instance().enumerate_adapters(backends()));
    adapters.sort_by_key(|a| std::cmp::Reverse(device_rank(a.get_info().device_type)));
    adapters
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let info = a.get_info();
            let limits = a.limits();
            AdapterSummary {
                name: info.name.clone(),
                backend: format!("{:?}", info.backend),
                device_type: format!("{:?}", info.device_type),
                driver: format!("{} {}", info.driver, info.driver_info)
                    .trim()
                    .to_string(),
                shader_f64: a.features().contains(wgpu::Features::SHADER_F64),
                max_storage_binding: limits.max_storage_buffer_binding_size,
                max_buffer: limits.max_buffer_size,
                max_workgroup_storage: limits.max_compute_workgroup_storage_size,
                max_invocations: limits.max_compute_invocations_per_workgroup,
                auto_choice: i == 0 && info.device_type != wgpu::DeviceType::Cpu,
            }
        })
        .collect()
}
