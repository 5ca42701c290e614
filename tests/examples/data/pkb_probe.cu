// Calls every function of pkb.cuh once, so that NVRTC emits (and ptxas checks) each inline PTX
// string: a header function nobody calls is never compiled. Used by pkb_header_test.cpp.
extern "C" __global__ void pkb_probe(pkb::Peers<const __nv_bfloat16> x, pkb::Peers<float> f,
                                     uint4* out, pkb::SignalPad signals, pkb::Context ctx) {
  unsigned* flag = signals.user(ctx.rank);
  unsigned word = pkb::ld_acquire_sys(flag) + pkb::ld_relaxed_sys(flag + 1);
  pkb::st_release_sys(flag + 2, word);
  pkb::st_relaxed_sys(flag + 3, word);
  word += pkb::atomic_add_release_sys(flag + 4, 1) + pkb::atomic_add_acq_rel_sys(flag + 5, 1) +
          pkb::atomic_add_relaxed_sys(flag + 6, 1);
  pkb::fence_acq_rel_sys();
  pkb::wait_until_ge(flag + 7, word);
  pkb::wait_until_ne(flag + 8, word);
  pkb::check_spin_timeout(pkb::globaltimer_ns());
  word += pkb::thread_rank_in_block() + pkb::threads_in_block() + pkb::block_rank_in_grid() +
          pkb::blocks_in_grid() + (ctx.emulated() ? 1u : 0u);

  float wide[8] = {};
  pkb::accumulate_bf16x8(wide, pkb::load128(x[ctx.rank]));
  pkb::accumulate_f16x8(wide, pkb::load128(x.ptr[0]));
  float narrow[4] = {};
  pkb::accumulate_f32x4(narrow, pkb::load128(f[ctx.world - 1]));
  const uint4 sum = pkb::add_bf16x8(pkb::pack_bf16x8(wide), pkb::pack_f16x8(wide));
  const uint4 halves = pkb::add_f16x8(sum, pkb::pack_f32x4(narrow));
  const float4 floats =
      pkb::add_f32x4(make_float4(1.f, 2.f, 3.f, 4.f), make_float4(0.f, 0.f, 0.f, 0.f));
  pkb::store128(out + threadIdx.x, halves);
  out[blockDim.x + threadIdx.x] = make_uint4(word, __float_as_uint(floats.x), 0, 0);

  pkb::barrier_block(signals, blockIdx.x);
  pkb::barrier_grid(signals, 0);
#if PKB_HAS_MULTICAST
  void* mc = out + 2 * blockDim.x;
  pkb::multimem_st128(mc, pkb::multimem_ld_reduce_add_bf16x8(mc));
  pkb::multimem_st128(mc, pkb::multimem_ld_reduce_add_f16x8(mc));
  pkb::multimem_red_add_f32x4(mc, pkb::multimem_ld_reduce_add_f32x4(mc));
  pkb::multimem_red_add_bf16x8(mc, sum);
#endif
}
