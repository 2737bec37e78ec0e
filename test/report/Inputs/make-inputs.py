"""Writes the hand-made input documents of the report tests (run it after changing a scenario; the
expected numbers are derived by hand in each .test file, not by this script)."""
import json, struct, os
D=os.path.dirname(os.path.abspath(__file__)) + '/'
def q(e): return {"expr": e, "value": None}
def kern(name, mangled, file, line, params, flops, bytes_, accesses=(), unknowns=(), fp32=None, fp64="0", special="0"):
    return {"name": name, "mangled": mangled, "file": file, "line": line,
            "params": [{"index": i, "name": n, "type": t, "size": s} for i,(n,t,s) in enumerate(params)],
            "flops": {"total": q(flops), "fp64": q(fp64), "fp32": q(fp32 if fp32 is not None else flops), "fp16": q("0"), "bf16": q("0"), "tensor": q("0"), "special": q(special)},
            "bytes": {"read": q(bytes_[0]), "write": q(bytes_[1]), "ideal": q(bytes_[2]), "predicted": q(bytes_[3])},
            "intensity": {"ideal": q("(%s) / (%s)" % (flops, bytes_[2])), "predicted": q("(%s) / (%s)" % (flops, bytes_[3]))},
            "accesses": [dict(pointer=p, file=f, line=l, column=c, kind=k, stride_bytes=sb, sectors_per_request=spr, coalesced=co) for (p,f,l,c,k,sb,spr,co) in accesses],
            "unknowns": [dict(reason=r, file=f, line=l, column=c) for (r,f,l,c) in unknowns]}
def static(path, kernels):
    json.dump({"schema": "roofcheck.static/1", "generator": "hand-made", "arch": "sm_90", "kernels": kernels}, open(D+path,'w'), indent=1)
def dev(uuid="GPU-aaaa", name="NVIDIA H200", l2=62914560):
    return {"index": 0, "name": name, "uuid": uuid, "compute_capability": "9.0", "multiprocessors": 132, "l2_bytes": l2, "memory_bytes": 150754820096}
def header(pid, rank, sm=1980, mem=3201, uuid="GPU-aaaa", l2=62914560):
    return {"schema": "roofcheck.measured/1", "record": "header", "pid": pid, "rank": rank, "program": ["./app"], "started": "2026-11-30T02:00:00Z",
            "roofcheck_version": "0.1.0", "driver_version": "580.159.04", "cuda_version": "13.0", "cupti_version": 26, "devices": [dev(uuid, l2=l2)],
            "clocks": {"sm_mhz": sm, "memory_mhz": mem}, "replay_passes": 1, "options": {"metrics": "default"}}
def i32(v): return struct.pack('<i', v).hex()
def u64(v): return struct.pack('<Q', v).hex()
def f32(v): return struct.pack('<f', v).hex()
def f64(v): return struct.pack('<d', v).hex()
PTR = "0000a00b737f0000"
def launch(index, name, mangled, grid, block, args, dur, metrics=None):
    a = [{"index": i, "offset": 8*i, "size": len(h)//2, "hex": h} for (i,h) in args]
    return {"record": "launch", "index": index, "name": name, "mangled": mangled, "device": 0, "context": 1, "stream": 7,
            "grid": grid, "block": block, "cluster": [1,1,1], "shared_dynamic": 0, "shared_static": 0, "registers": 16,
            "args": a, "nvtx": [], "duration_ns": dur, "profiled": metrics is not None, "metrics": metrics or {}}
def m(read, write, fadd=0, fmul=0, ffma=0, dadd=None, dmul=None, dfma=None, l2=None, hfma=None, local=None):
    r = {"dram__bytes_read.sum": read, "dram__bytes_write.sum": write,
         "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": fadd, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": fmul,
         "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": ffma}
    if dadd is not None:
        r.update({"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": dadd, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": dmul, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": dfma})
    if hfma is not None:
        r.update({"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum": 0, "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum": 0, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum": hfma})
    if l2 is not None: r["lts__t_bytes.sum"] = l2
    if local is not None:
        r.update({"l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum": local[0], "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum": local[1]})
    return r
def jsonl(path, records):
    open(D+path,'w').write("".join(json.dumps(r)+"\n" for r in records))
def prov(v, sm=1980, mem=3201):
    c = {"sm_mhz": sm, "memory_mhz": mem}
    return {"kernel": "probe", "parameters": {}, "repetitions": 20, "median": v, "min": v*0.98, "max": v*1.01, "clocks_before": c, "clocks_during": c, "clocks_after": c}
def ceilings(path, uuid="GPU-aaaa", name="NVIDIA H200", sm=1980):
    json.dump({"schema": "roofcheck.ceilings/1", "roofcheck_version": "0.1.0", "measured_at": "2026-11-30T01:00:00Z", "device": dev(uuid, name),
               "driver_version": "580.159.04", "cuda_version": "13.0",
               "memory": [{"level": "dram", "variant": "copy", "bytes_per_second": 4.4e12, "provenance": prov(4.4e12, sm)},
                          {"level": "l2", "variant": "read", "bytes_per_second": 1.1e13, "provenance": prov(1.1e13, sm)}],
               "compute": [{"bucket": "fp32", "dtype": "fp32", "path": "FFMA", "flops_per_second": 5.0e13, "provenance": prov(5.0e13, sm)},
                           {"bucket": "fp64", "dtype": "fp64", "path": "DFMA", "flops_per_second": 2.5e13, "provenance": prov(2.5e13, sm)}],
               "environment": {}}, open(D+path,'w'), indent=1)

ceilings("h200.ceilings.json")
ceilings("h100.ceilings.json", uuid="GPU-bbbb", name="NVIDIA H100 80GB HBM3", sm=1500)

# --- join: vector_add (int n), transpose_naive (int n), axpy_mixed (size_t n, float alpha, double beta) with two signatures
VA = "_Z10vector_addPKfS0_Pfi"; TN = "_Z15transpose_naivePKfPfi"; MX = "_Z9axpy_mixedPKfPfmfd"
static("join.static.json", [
  kern("vector_add", VA, "examples/vector_add.cu", 36, [("a","const float *",8),("b","const float *",8),("c","float *",8),("n","int",4)], "n", ("8 * n","4 * n","12 * n","12 * n"),
       accesses=[("a","examples/vector_add.cu",39,12,"load",4,4.0,True),("c","examples/vector_add.cu",39,5,"store",4,4.0,True)]),
  kern("transpose_naive", TN, "examples/transpose.cu", 49, [("in","const float *",8),("out","float *",8),("n","int",4)], "0", ("4 * n * n","4 * n * n","8 * n * n","36 * n * n"),
       accesses=[("in","examples/transpose.cu",53,22,"load",4,4.0,True),("out","examples/transpose.cu",53,5,"store",32768,32.0,False)]),
  kern("axpy_mixed", MX, "bench/mixed.cu", 10, [("x","const float *",8),("y","float *",8),("n","size_t",8),("alpha","float",4),("beta","double",8)],
       "2 * n", ("4 * n","4 * n","8 * n","8 * n")),
])
n = 1 << 26
jsonl("join.jsonl", [header(1001, None),
  launch(0, "vector_add(float const*, float const*, float*, int)", VA, [262144,1,1], [256,1,1], [(0,PTR),(1,PTR),(2,PTR),(3,i32(n))], 200000, m(8*n, 4*n, fadd=n)),
  launch(1, "transpose_naive(float const*, float*, int)", TN, [256,256,1], [32,32,1], [(0,PTR),(1,PTR),(2,i32(8192))], 600000, m(4*8192*8192, 4*8192*8192, l2=36*8192*8192)),
  launch(2, "axpy_mixed(float const*, float*, unsigned long, float, double)", MX, [4096,1,1], [256,1,1], [(0,PTR),(1,PTR),(2,u64(n)),(3,f32(0.5)),(4,f64(2.0))], 150000, m(4*n, 4*n, ffma=n)),
  launch(3, "axpy_mixed(float const*, float*, unsigned long, float, double)", MX, [4096,1,1], [256,1,1], [(0,PTR),(1,PTR),(2,u64(n)),(3,f32(0.5)),(4,f64(2.0))], 150000),
  launch(4, "axpy_mixed(float const*, float*, unsigned long, float, double)", MX, [1024,1,1], [256,1,1], [(0,PTR),(1,PTR),(2,u64(n//4)),(3,f32(-1.5)),(4,f64(2.0))], 50000, m(n, n, ffma=n//4)),
])

# --- multi-rank: same vector_add on two ranks, plus a kernel only on rank 1
jsonl("rank0.jsonl", [header(2000, 0),
  launch(0, "vector_add(float const*, float const*, float*, int)", VA, [262144,1,1], [256,1,1], [(3,i32(n))], 200000, m(8*n, 4*n, fadd=n)),
  launch(1, "vector_add(float const*, float const*, float*, int)", VA, [262144,1,1], [256,1,1], [(3,i32(n))], 200000)])
jsonl("rank1.jsonl", [header(2001, 1),
  launch(0, "vector_add(float const*, float const*, float*, int)", VA, [262144,1,1], [256,1,1], [(3,i32(n))], 400000, m(8*n, 4*n, fadd=n)),
  launch(1, "transpose_naive(float const*, float*, int)", TN, [256,256,1], [32,32,1], [(2,i32(8192))], 200000)])

# --- explanations
MM = "_Z12matmul_naivePKfS0_Pfi"; SC = "_Z5scalePKfPfif"; FI = "_Z4fillPdid"; BC = "_Z8big_copyPKfPfi"; VL = "_Z11vec2_lengthPK6float2Pfi"; SX = "_Z5saxpyfPKfPfi"; IN = "_Z4initPfi"
static("explain.static.json", [
  kern("matmul_naive", MM, "examples/matmul.cu", 30, [("A","const float *",8),("B","const float *",8),("C","float *",8),("N","int",4)], "2 * N * N * N", ("8 * N * N","4 * N * N","12 * N * N","12 * N * N"),
       accesses=[("A","examples/matmul.cu",36,14,"load",0,1.0,True),("B","examples/matmul.cu",36,28,"load",4,4.0,True)]),
  kern("scale", SC, "bench/l2.cu", 5, [("x","const float *",8),("y","float *",8),("n","int",4),("alpha","float",4)], "n", ("4 * n","4 * n","8 * n","8 * n")),
  kern("fill", FI, "bench/l2.cu", 12, [("out","double *",8),("n","int",4),("value","double",8)], "0", ("0","8 * n","8 * n","8 * n")),
  kern("big_copy", BC, "bench/copy.cu", 3, [("in","const float *",8),("out","float *",8),("n","int",4)], "0", ("4 * n","4 * n","8 * n","8 * n")),
  kern("vec2_length", VL, "bench/corpus/control.cu", 70, [("v","const float2 *",8),("out","float *",8),("n","int",4)], "3 * n", ("8 * n","4 * n","12 * n","12 * n"), special="n",
       unknowns=[("unresolved call","bench/corpus/control.cu",72,10)]),
  kern("saxpy", SX, "bench/corpus/streaming.cu", 20, [("a","float",4),("x","const float *",8),("y","float *",8),("n","int",4)], "2 * n", ("8 * n","4 * n","12 * n","12 * n")),
  kern("init", IN, "bench/l2.cu", 1, [("x","float *",8),("n","int",4)], "0", ("0","4 * n","4 * n","4 * n")),
])
N = 2048; s = 1 << 20
jsonl("explain.jsonl", [header(3000, None),
  launch(0, "matmul_naive(float const*, float const*, float*, int)", MM, [64,64,1], [32,32,1], [(3,i32(N))], 10000000, m(2000000000, 1000000000, ffma=N**3)),
  launch(1, "init(float*, int)", IN, [4096,1,1], [256,1,1], [(1,i32(s))], 5000),
  launch(2, "scale(float const*, float*, int, float)", SC, [4096,1,1], [256,1,1], [(2,i32(s)),(3,f32(3.0))], 5000, m(0, 4*s, fmul=s)),
  launch(3, "fill(double*, int, double)", FI, [4096,1,1], [256,1,1], [(1,i32(s)),(2,f64(1.0))], 5000, m(0, s)),
  launch(4, "big_copy(float const*, float*, int)", BC, [262144,1,1], [256,1,1], [(2,i32(n))], 100000, m(2*n, 2*n)),
  launch(5, "vec2_length(float2 const*, float*, int)", VL, [4096,1,1], [256,1,1], [(2,i32(s))], 10000, m(8*s, 4*s, fadd=s, fmul=2*s, ffma=s)),
  launch(6, "saxpy(float, float const*, float*, int)", SX, [262144,1,1], [256,1,1], [(0,f32(2.0)),(3,i32(n))], 100000, m(8*n, 4*n, ffma=n)),
])

# --- errors
jsonl("no-match.jsonl", [header(4000, None),
  launch(0, "other_kernel(int)", "_Z12other_kerneli", [1,1,1], [32,1,1], [(0,i32(5))], 1000, m(100, 100))])
lines = open(D+"join.jsonl").read().splitlines()
open(D+"truncated-tail.jsonl","w").write("\n".join(lines[:3]) + "\n" + lines[3][:60])
open(D+"truncated-middle.jsonl","w").write("\n".join([lines[0], lines[1][:50], lines[2]]) + "\n")
open(D+"nan.jsonl","w").write(lines[0] + "\n" + lines[1].replace('"duration_ns": 200000', '"duration_ns": NaN') + "\n")
open(D+"negative.jsonl","w").write(lines[0] + "\n" + lines[1].replace('"dram__bytes_read.sum": %d' % (8*n), '"dram__bytes_read.sum": -1') + "\n")
open(D+"empty.jsonl","w").write("")
json.dump({"schema": "roofcheck.static/2", "kernels": []}, open(D+"wrong-schema.json","w"))
json.dump({"kernels": []}, open(D+"no-schema.json","w"))
jsonl("bad-arg-size.jsonl", [header(4002, None),
  launch(0, "vector_add(float const*, float const*, float*, int)", VA, [262144,1,1], [256,1,1], [(3,u64(n))], 200000, m(8*n, 4*n, fadd=n))])
jsonl("header-only.jsonl", [header(4003, None)])

# --- transpose_naive as lint writes it without bindings: the store's stride (4n B) has no value, so no
# coalescing verdict; only the predicted bytes (36n^2) tell.
static("symbolic-stride.static.json", [
  kern("transpose_naive", TN, "examples/transpose.cu", 49, [("in","const float *",8),("out","float *",8),("n","int",4)], "0", ("4 * n * n","4 * n * n","8 * n * n","36 * n * n"),
       accesses=[("in","examples/transpose.cu",53,22,"load",4,4.0,True),("out","examples/transpose.cu",53,5,"store",None,None,None)]),
])

# --- a tensor-core GEMM: its FLOPs are in flops.tensor, which the FMA-pipe counters do not see
GT = "_Z9gemm_tf32PKfS0_Pfi"
static("tensor.static.json", [
  kern("gemm_tf32", GT, "bench/gemm.cu", 8, [("A","const float *",8),("B","const float *",8),("C","float *",8),("N","int",4)],
       "2 * N * N * N", ("8 * N * N","4 * N * N","12 * N * N","12 * N * N"), fp32="0"),
])
d = json.load(open(D+"tensor.static.json")); d["kernels"][0]["flops"]["tensor"] = q("2 * N * N * N")
json.dump(d, open(D+"tensor.static.json","w"), indent=1)
jsonl("tensor.jsonl", [header(5000, None),
  launch(0, "gemm_tf32(float const*, float const*, float*, int)", GT, [32,32,1], [128,1,1], [(3,i32(1024))], 100000, m(8*1024*1024, 4*1024*1024))])

# --- the same GEMM as `roofcheck run` samples it by default: a base-set launch (the tensor pipe's instruction
# counts, no op counters), an unprofiled one, then a full one whose tf32 ops are its FLOPs; and a library GEMM
# (no static entry) that only the base set sampled.
def tensor_base(instructions, moves):
    r = m(8*1024*1024, 4*1024*1024, dadd=0, dmul=0, dfma=0, hfma=0)
    r.update({"sm__inst_executed_pipe_tensor.sum": instructions, "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum": moves})
    return r
def tensor_full(tf32_ops):
    r = tensor_base(131072, 0)
    r.update({"sm__ops_path_tensor_src_%s.sum" % t: 0 for t in ("fp16", "fp64", "fp8", "int1", "int8")})
    r.update({"sm__ops_path_tensor_src_bf16_dst_fp32.sum": 0, "sm__ops_path_tensor_src_tf32_dst_fp32.sum": tf32_ops})
    return r
GEMM = "gemm_tf32(float const*, float const*, float*, int)"
LIB = "nvjet_sm90_tst_128x128_64x4_1x1_v_bz_NNT"
jsonl("tensor-measured.jsonl", [header(5001, None),
  launch(0, GEMM, GT, [32,32,1], [128,1,1], [(3,i32(1024))], 100000, tensor_base(131072, 0)),
  launch(1, GEMM, GT, [32,32,1], [128,1,1], [(3,i32(1024))], 100000),
  launch(2, GEMM, GT, [32,32,1], [128,1,1], [(3,i32(1024))], 100000, tensor_full(2*1024**3)),
  launch(3, LIB, LIB, [8,8,1], [256,1,1], [], 50000, tensor_base(65536, 0))])

# --- tensor-core GEMMs as lint writes them with their source type (flops.tensor_by_type): a kernel whose
# launches carry no tensor op counters, or that was never run, sits under the ceiling of that type. The bf16
# one as lint writes it when given N = 1024: every quantity has its value.
GB = "_Z9gemm_bf16PK13__nv_bfloat16S1_Pfi"
def typed_gemm(name, mangled, line, element, element_bytes, source_type, N=None):
    k = kern(name, mangled, "bench/gemm.cu", line, [("A","const %s *" % element,8),("B","const %s *" % element,8),("C","float *",8),("N","int",4)],
             "2 * N * N * N", ("%d * N * N" % (2*element_bytes),"4 * N * N","%d * N * N" % (2*element_bytes+4),"%d * N * N" % (2*element_bytes+4)), fp32="0")
    k["flops"]["tensor"] = q("2 * N * N * N")
    k["flops"]["tensor_by_type"] = {source_type: q("2 * N * N * N")}
    if N is not None:
        for quantities in (k["flops"], k["flops"]["tensor_by_type"], k["bytes"], k["intensity"]):
            for quantity in quantities.values():
                if "expr" in quantity:
                    quantity["value"] = float(eval(quantity["expr"], {"N": N}))
    return k
static("tensor-typed.static.json", [typed_gemm("gemm_tf32", GT, 8, "float", 4, "tf32"),
                                    typed_gemm("gemm_bf16", GB, 20, "__nv_bfloat16", 2, "bf16", N=1024)])

# --- the H200 examples run in miniature: the matmuls write twice their output (a 16 MB output fits in L2, so
# earlier launches' dirty lines are written back during the next), ptxas's HFMA2.MMA moves show as fp16 FLOPs
# in matmul_tiled and an expf kernel, and kernels that do not fit or do spill tell the write-back apart.
MN = "_Z12matmul_naivePKfS0_Pfi"; MT = "_Z12matmul_tiledPKfS0_Pfi"; ES = "_Z7exp_sumPKfPfi"; HA = "_Z9half_axpyPK6__halfPS_i"
BS = "_Z9big_scalePKfPfi"; SP = "_Z11spill_scalePKfPfi"; GA = "_Z6gatherPKfPfi"
mm = [("A","const float *",8),("B","const float *",8),("C","float *",8),("N","int",4)]
vec = [("x","const float *",8),("y","float *",8),("n","int",4)]
static("h200run.static.json", [
  kern("matmul_naive", MN, "examples/matmul.cu", 48, mm, "2 * N * N * N", ("8 * N * N","4 * N * N","12 * N * N","12 * N * N")),
  kern("matmul_tiled", MT, "examples/matmul.cu", 62, mm, "2 * N * N * N", ("8 * N * N","4 * N * N","12 * N * N","12 * N * N")),
  kern("exp_sum", ES, "examples/softmax.cu", 90, vec, "2 * n", ("4 * n","4 * n","8 * n","8 * n"), special="n"),
  kern("half_axpy", HA, "bench/half.cu", 4, [("x","const __half *",8),("y","__half *",8),("n","int",4)], "n", ("2 * n","2 * n","4 * n","4 * n")),
  kern("big_scale", BS, "bench/scale.cu", 3, vec, "n", ("4 * n","4 * n","8 * n","8 * n")),
  kern("spill_scale", SP, "bench/scale.cu", 12, vec, "n", ("4 * n","4 * n","8 * n","8 * n")),
  kern("gather", GA, "bench/gather.cu", 7, vec, "n", ("4 * n","4 * n","8 * n","8 * n")),
])
N = 2048; e = 1 << 24; h = 1 << 20; big = 1 << 25
def h200run(path, l2):
    mma = lambda i: launch(i, "matmul_naive(float const*, float const*, float*, int)", MN, [64,64,1], [32,32,1], [(3,i32(N))], 2500000,
                           m(33554432, 34802944, ffma=N**3, hfma=0, local=(0, 0)))
    mmt = lambda i: launch(i, "matmul_tiled(float const*, float const*, float*, int)", MT, [64,64,1], [32,32,1], [(3,i32(N))], 1860000,
                           m(33456128, 34482944, ffma=N**3, hfma=272629760))
    jsonl(path, [header(6000, None, l2=l2), mma(0), mma(1), mmt(2), mmt(3),
      launch(4, "exp_sum(float const*, float*, int)", ES, [65536,1,1], [256,1,1], [(2,i32(e))], 205000, m(4*e, 4*e, fadd=2*e, fmul=2*e, ffma=4*e, hfma=e)),
      launch(5, "half_axpy(__half const*, __half*, int)", HA, [4096,1,1], [256,1,1], [(2,i32(h))], 4000, m(2*h, 2*h, fadd=h, hfma=h)),
      launch(6, "big_scale(float const*, float*, int)", BS, [131072,1,1], [256,1,1], [(2,i32(big))], 120000, m(4*big, 8*big, fmul=big)),
      launch(7, "spill_scale(float const*, float*, int)", SP, [4096,1,1], [256,1,1], [(2,i32(h))], 5000, m(4*h, 8*h, fmul=h, local=(2*h, 2*h))),
      launch(8, "gather(float const*, float*, int)", GA, [4096,1,1], [256,1,1], [(2,i32(h))], 6000, m(8*h, 8*h, fmul=h)),
    ])
h200run("h200run.jsonl", 62914560)
h200run("h200run-nol2.jsonl", 0)

# --- the traffic set: matmul_naive's second profiled launch counted time, DRAM and L2 bytes in one pass (its
# writes twice the output's 4N^2: write-back of the launch before), the first and third all metrics under 8
# replay passes (writes inflated by the replay's dirty lines too); matmul_tiled, launched once, has only replayed counts; exp_sum's fp16 register moves
# come from its two full-set launches.
def passes(record, n):
    record["replay_passes"] = n
    return record
def traffic(read, write, l2, time):
    return {"gpu__time_duration.sum": time, "dram__bytes_read.sum": read, "dram__bytes_write.sum": write, "lts__t_bytes.sum": l2}
jsonl("traffic-set.jsonl", [dict(header(6001, None), replay_passes=8),
  passes(launch(0, "matmul_naive(float const*, float const*, float*, int)", MN, [64,64,1], [32,32,1], [(3,i32(N))], 2500000,
                m(33554432, 55000000, ffma=N**3, hfma=0, local=(0, 0))), 8),
  passes(launch(1, "matmul_naive(float const*, float const*, float*, int)", MN, [64,64,1], [32,32,1], [(3,i32(N))], 2500000,
                traffic(33554432, 33554432, 60000000, 2500000)), 1),
  passes(launch(2, "matmul_naive(float const*, float const*, float*, int)", MN, [64,64,1], [32,32,1], [(3,i32(N))], 2500000,
                m(33554432, 56000000, ffma=N**3, hfma=0, local=(0, 0))), 8),
  passes(launch(3, "matmul_tiled(float const*, float const*, float*, int)", MT, [64,64,1], [32,32,1], [(3,i32(N))], 1860000,
                m(33456128, 34482944, ffma=N**3, hfma=272629760, local=(0, 0))), 8),
] + [passes(launch(4 + i, "exp_sum(float const*, float*, int)", ES, [65536,1,1], [256,1,1], [(2,i32(e))], 205000,
                   traffic(4*e, 4*e, 8*e, 205000) if i == 1 else m(4*e, 4*e, fadd=2*e, fmul=2*e, ffma=4*e, hfma=e)),
            1 if i == 1 else 8) for i in range(3)])

# --- ceilings as probed on the H200 (tensor: the burst probe of 2026-12-02, docs/benchmarks.md): near-equal roofs
# (fp32, fp16, bf16; tensor fp16 and bf16) and memory levels
# whose labels collide unless the layout stacks them.
def h200_ceilings(path):
    memory = [("dram", "copy", 4.29e12), ("dram", "write", 4.67e12), ("l2", "read", 7.08e12), ("shared", "read", 3.26e13)]
    compute = [("fp64", "fp64", 3.07e13), ("fp32", "fp32", 6.58e13), ("fp16", "fp16", 6.65e13), ("bf16", "bf16", 6.66e13),
               ("tensor", "fp16", 7.85e14), ("tensor", "bf16", 8.49e14), ("tensor", "tf32", 4.18e14), ("tensor", "fp8", 1.56e15),
               ("tensor", "fp64", 6.32e13)]
    json.dump({"schema": "roofcheck.ceilings/1", "roofcheck_version": "0.1.0", "measured_at": "2026-11-30T01:00:00Z", "device": dev(),
               "driver_version": "580.159.04", "cuda_version": "13.0",
               "memory": [{"level": l, "variant": v, "bytes_per_second": b, "provenance": prov(b)} for (l, v, b) in memory],
               "compute": [{"bucket": b, "dtype": d, "path": "probe", "flops_per_second": f, "provenance": prov(f)} for (b, d, f) in compute],
               "environment": {}}, open(D+path,'w'), indent=1)
h200_ceilings("h200-probed.ceilings.json")
