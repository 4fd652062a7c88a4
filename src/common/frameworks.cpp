#include "common/frameworks.hpp"

#include "common/input_error.hpp"

namespace sgdsim {

namespace {
constexpr double kMiB = 1024.0 * 1024;
} // namespace

const std::vector<FrameworkProfile>& framework_profiles()
{
  // Sources (docs/models.md §10 gives them in full):
  // - PyTorch DDP: torch/nn/parallel/distributed.py, bucket_cap_mb=25 (MiB: int(bucket_cap_mb * 1024 * 1024));
  //   torch.distributed._DEFAULT_FIRST_BUCKET_BYTES = 1 MiB (torch 1.13). NCCL runs a process group's collectives
  //   on one stream, one after the other; ProcessGroupGloo runs them on a pool of threads, 2 by default
  //   (ProcessGroupGloo._Options()._threads == 2 in torch 1.13). Horovod's and DDP's default backend for GPUs is NCCL,
  //   whose socket transport opens 1 connection per peer except where it recognizes the NIC (docs/models.md §10.9).
  // - Horovod: HOROVOD_FUSION_THRESHOLD and HOROVOD_CYCLE_TIME, 64 MiB and 5 ms until 0.20, 128 MiB and 1 ms from
  //   0.21.0 (horovod/horovod#2468); one background thread runs one collective at a time.
  // - TensorFlow's PS (gRPC): [LI22] §3.1.1 measured its Sync-PS step between equal sharing and FCFS and modelled
  //   it as their average (docs/models.md §2.1, eq. (9)); raw TCP streams (Gloo send/recv: the project's own
  //   testbed, validation/testbed/README.md) share the PS's NIC as SimGrid's max-min does (fair).
  // - TensorFlow <= 1.3's gRPC (docs/models.md §10.5). A process receives every tensor it asks for (RecvTensor) on
  //   one thread: TensorFlow's gRPC worker cache polled its completion queue with a single thread
  //   (grpc_worker_cache.cc, "polling_thread_", 2016-2017). Its rate: one PS process moved 0.9 GB/s between two
  //   processes of one machine (Xeon E5-2630 v3; in-process 20.2 GB/s; tensorflow/tensorflow#6116, 2016-12-09), so
  //   1/0.9 GB/s = 1.11 ns per byte. Between two machines on a 10 Gbit/s link the same RecvTensor benchmark reached
  //   100-200 MB/s before the gRPC upgrade of August 2017 and 800 MB/s after it (#6116, 2017-08-09): at the middle,
  //   150 MB/s, a byte between hosts costs 1/150 MB/s - 1/1.25 GB/s (the link's own time) - 1.11 ns (the receive
  //   thread) = 4.76 ns more, per connection ([LI20] eq. (19)'s a). The wire is then shared as TCP shares it
  //   (fair): the receive thread is the serialization at the PS that the hybrid's FCFS half stood in for.
  constexpr double kGrpc2017ReceiveSPerByte = 1.0 / 0.9e9;
  constexpr double kGrpc2017SPerByte        = 1.0 / 150e6 - 1.0 / 1.25e9 - kGrpc2017ReceiveSPerByte;
  // - The ring's slices (docs/models.md §10.10): NCCL's 1 MiB (NCCL_BUFFSIZE 4 MiB / NCCL_STEPS 8 x
  //   ALLREDUCE_SLICESTEPS 2) with NCCL_STEPS / ALLREDUCE_SLICESTEPS = 4 in flight (collectives.h, device.h); Gloo's
  //   ring segments of at most AllreduceOptions::kMaxSegmentSize = 1 MiB, "two in flight at all times"
  //   (gloo/allreduce.h), each send waiting for the receiver's notice that its receive is posted (tcp/pair.cc):
  //   a message of the receiver's, which a FIFO egress queues behind its own data (docs/models.md §10.12).
  constexpr double kNcclSlice = 1024.0 * 1024, kGlooSegment = 1024.0 * 1024;
  constexpr int kNcclInFlight = 4, kGlooInFlight = 2;
  static const std::vector<FrameworkProfile> profiles = {
      {.name = "none", .summary = "sgdsim's own: one all-reduce per layer with gradients, one at a time"},
      {.name    = "pytorch-ddp",
       .summary = "PyTorch DDP on NCCL: 25 MiB buckets (first 1 MiB) in backward order, one collective at a time",
       .unit    = AllreduceUnit::BUCKET,
       .nccl    = true,
       .ring_slice_bytes      = kNcclSlice,
       .ring_slices_in_flight = kNcclInFlight},
      {.name    = "pytorch-ddp-gloo",
       .summary = "PyTorch DDP on Gloo: 25 MiB buckets (first 1 MiB), two collectives at once (2 threads)",
       .unit    = AllreduceUnit::BUCKET,
       .collectives_in_flight = 2,
       .ring_slice_bytes      = kGlooSegment,
       .ring_slices_in_flight = kGlooInFlight,
       .ring_credit_messages  = true},
      {.name                  = "horovod",
       .summary               = "Horovod >= 0.21: tensor fusion, 128 MiB buffer, 1 ms cycle, one collective at a time",
       .unit                  = AllreduceUnit::FUSION,
       .fusion_buffer_bytes   = 128 * kMiB,
       .fusion_timeout_s      = 1e-3,
       .nccl                  = true,
       .ring_slice_bytes      = kNcclSlice,
       .ring_slices_in_flight = kNcclInFlight},
      {.name                  = "horovod-0.20",
       .summary               = "Horovod <= 0.20: tensor fusion, 64 MiB buffer, 5 ms cycle, one collective at a time",
       .unit                  = AllreduceUnit::FUSION,
       .fusion_buffer_bytes   = 64 * kMiB,
       .fusion_timeout_s      = 5e-3,
       .nccl                  = true,
       .ring_slice_bytes      = kNcclSlice,
       .ring_slices_in_flight = kNcclInFlight},
      {.name = "nccl",
       .summary =
           "bare NCCL all-reduce calls (torch.distributed or CuPy on NCCL, nccl-tests): one per tensor, one at a time",
       .unit                  = AllreduceUnit::TENSOR,
       .nccl                  = true,
       .ring_slice_bytes      = kNcclSlice,
       .ring_slices_in_flight = kNcclInFlight},
      {.name                  = "gloo",
       .summary               = "bare Gloo all-reduce calls (torch.distributed on Gloo): one per tensor, one at a time",
       .unit                  = AllreduceUnit::TENSOR,
       .ring_slice_bytes      = kGlooSegment,
       .ring_slices_in_flight = kGlooInFlight,
       .ring_credit_messages  = true},
      {.name     = "none",
       .summary  = "one connection per worker and PS, sharing the PS's NIC fairly (TCP streams, e.g. Gloo send/recv)",
       .for_ring = false},
      {.name     = "tf-ps",
       .summary  = "TensorFlow's parameter servers over gRPC: transfers between equal sharing and FCFS ([LI22] hybrid)",
       .for_ring = false,
       .sharing  = Sharing::HYBRID},
      {.name = "tf-ps-1.3",
       .summary =
           "TensorFlow <= 1.3's parameter servers, gRPC before its August 2017 upgrade: 150 MB/s per tensor stream "
           "between hosts, one receive thread of 0.9 GB/s per process, fair sharing",
       .for_ring           = false,
       .message_s_per_byte = kGrpc2017SPerByte,
       .receive_s_per_byte = kGrpc2017ReceiveSPerByte},
  };
  return profiles;
}

const FrameworkProfile& find_framework(const std::string& name, bool ring, const std::string& context)
{
  std::string valid;
  for (const FrameworkProfile& p : framework_profiles()) {
    if (p.for_ring != ring)
      continue;
    if (name == p.name)
      return p;
    valid += (valid.empty() ? "" : ", ") + std::string(p.name);
  }
  throw InputError(context + " '" + name + "': unknown framework for " +
                   (ring ? "--arch ring" : "the PS architectures") + " (valid: " + valid + ")");
}

void apply_framework(const FrameworkProfile& profile, Scenario& sc)
{
  sc.framework = profile.name;
  if (!profile.for_ring) {
    sc.sharing            = profile.sharing;
    sc.message_s_per_byte = profile.message_s_per_byte;
    sc.receive_s_per_byte = profile.receive_s_per_byte;
    return;
  }
  sc.bucket_bytes          = profile.bucket_bytes;
  sc.first_bucket_bytes    = profile.first_bucket_bytes;
  sc.collectives_in_flight = profile.collectives_in_flight;
  sc.fusion_timeout_s      = profile.fusion_timeout_s;
  sc.ring_slice_bytes      = profile.ring_slice_bytes; // docs/models.md §10.10
  sc.ring_slices_in_flight = profile.ring_slices_in_flight;
  sc.ring_credit_messages  = profile.ring_credit_messages;
  if (profile.unit == AllreduceUnit::FUSION) {
    // Every fusion profile is Horovod's, whose frameworks ask for an all-reduce when they launch the gradient's
    // kernels on the GPU, ahead of its computation: buffers are formed from launched tensors (docs/models.md §10.1).
    sc.fusion_buffer_bytes = profile.fusion_buffer_bytes;
    sc.fusion_batches      = FusionBatches::SCHEDULED;
  } else {
    sc.fusion_buffer_bytes = 0;
    sc.fusion_batches      = FusionBatches::READY; // a --fusion-buffer given with it: [OSF22]'s rule
    sc.allreduce_unit      = profile.unit;
  }
}

} // namespace sgdsim
