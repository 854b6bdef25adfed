//! Adapter selection and device creation, with errors and device loss captured instead of
//! panicking.

use std::sync::{Arc, Mutex};

use super::shaders::Shader;
use super::source::wgsl_source;
use super::{GpuOptions, Precision};
use crate::EngineError;

/// The device, its queue and every compiled pipeline.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub precision: Precision,
    /// Largest storage binding the engine uses (the adapter's limit, or the caller's smaller cap).
    pub max_binding: u64,
    pub max_buffer: u64,
    pub uniform_align: u64,
    /// The first uncaptured error or device-loss message, reported by the next operation.
    pub fault: Arc<Mutex<Option<String>>>,
    pipelines: Vec<(Shader, wgpu::ComputePipeline)>,
}

/// The backends the engine uses: the native compute APIs (not GL, whose compute support is partial).
pub fn backends() -> wgpu::Backends {
    wgpu::Backends::PRIMARY
}

pub fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = backends();
    }
    wgpu::Instance::new(desc)
}

impl GpuContext {
    pub fn new(options: &GpuOptions) -> Result<Self, EngineError> {
        let instance = instance();
        let adapters = pollster::block_on(instance.enumerate_adapters(backends()));
        let adapter = adapters
            .into_iter()
            .filter(|a| !options.hardware_only || a.get_info().device_type != wgpu::DeviceType::Cpu)
            .max_by_key(|a| device_rank(a.get_info().device_type))
            .ok_or_else(|| {
                EngineError::gpu(if options.hardware_only {
                    "no hardware GPU adapter found"
                } else {
                    "no GPU adapter found (install a Vulkan driver, e.g. mesa-vulkan-drivers, \
                     or choose the CPU backend: device cpu)"
                })
            })?;
        let info = adapter.get_info();
        let wants_f64 = options.precision == Precision::F64;
        if wants_f64 && !adapter.features().contains(wgpu::Features::SHADER_F64) {
            return Err(EngineError::gpu(format!(
                "adapter {} does not support f64 shaders (SHADER_F64); use f32 precision",
                info.name
            )));
        }
        let limits = adapter.limits();
        let features = if wants_f64 {
            wgpu::Features::SHADER_F64
        } else {
            wgpu::Features::empty()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("bosweep"),
            required_features: features,
            required_limits: limits.clone(),
            experimental_features: Default::default(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: Default::default(),
        }))
        .map_err(|e| EngineError::gpu(format!("could not open {}: {e}", info.name)))?;

        let fault = Arc::new(Mutex::new(None));
        let on_error = Arc::clone(&fault);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            on_error
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(e.to_string());
        }));
        let on_lost = Arc::clone(&fault);
        device.set_device_lost_callback(move |reason, msg| {
            on_lost
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(format!(
                    "device lost ({reason:?}{}{msg}); with device auto a run finishes on the \
                     CPU backend instead",
                    if msg.is_empty() { "" } else { ": " }
                ));
        });

        let pipelines = Shader::ALL
            .iter()
            .map(|&shader| {
                let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(shader.name()),
                    source: wgpu::ShaderSource::Wgsl(wgsl_source(shader, options.precision).into()),
                });
                let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(shader.name()),
                    layout: None,
                    module: &module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                });
                (shader, pipeline)
            })
            .collect();

        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
            .min(options.max_binding_bytes.unwrap_or(u64::MAX));
        let ctx = Self {
            device,
            queue,
            info,
            precision: options.precision,
            max_binding,
            max_buffer: limits.max_buffer_size,
            uniform_align: u64::from(limits.min_uniform_buffer_offset_alignment),
            fault,
            pipelines,
        };
        ctx.check()?;
        Ok(ctx)
    }

    pub fn pipeline(&self, shader: Shader) -> &wgpu::ComputePipeline {
        &self
            .pipelines
            .iter()
            .find(|(s, _)| *s == shader)
            .expect("every shader is compiled")
            .1
    }

    /// Fails with the first captured error, if any.
    pub fn check(&self) -> Result<(), EngineError> {
        match self
            .fault
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
        {
            Some(msg) => Err(EngineError::gpu(msg.clone())),
            None => Ok(()),
        }
    }
}

/// Preference order of adapter types: discrete, integrated, virtual, other, then software.
pub fn device_rank(t: wgpu::DeviceType) -> u8 {
    match t {
        wgpu::DeviceType::DiscreteGpu => 4,
        wgpu::DeviceType::IntegratedGpu => 3,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 1,
        wgpu::DeviceType::Cpu => 0,
    }
}
