// The all-to-all between cards, three ways, for issue 15's "exchanges over NCCL or peer copies,
// whichever measures faster": one process, P cards, each card holding B bytes cut into P equal
// chunks; chunk j of card i goes to chunk i of card j (the exchange of a slab or six-step
// transpose once its local reordering is done).
//
//   alltoall P "64 256 1024"      (B in MiB per card)
//
//   nccl      ncclSend/ncclRecv of every pair in one group (ncclCommInitAll over the P cards);
//             NCCL is loaded at run time (dlopen libnccl.so.2), so no nccl.h is needed
//   memcpy    cudaMemcpyPeerAsync of every chunk, pushed from its source card's stream
//             (copy engines, peer access enabled)
//   pull      a kernel on each destination card reading its P chunks from the peers through
//             peer pointers, 16 bytes a thread (what fftx's exchange copies do, less the transpose)
//   *-ring    the same, each card starting with its own chunk and going round the ring (card
//             i's k-th chunk is card i+k's), instead of every card taking card 0's first
//
// Timed by the wall clock around the launch of every card's share and a synchronization of
// every card; median of 9 after 2 warm-ups. Printed per card: bytes that leave it ((P-1)/P of
// B) over the time, in GB/s. Each result is checked (every chunk carries its source and index).
// Build: nvcc -O3 -std=c++17 -arch=sm_90 bench/alltoall.cu -ldl -o alltoall
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));        \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

typedef struct ncclComm *ncclComm_t;
typedef int (*InitAll)(ncclComm_t *, int, const int *);
typedef int (*Group)(void);
typedef int (*Send)(const void *, size_t, int, int, ncclComm_t, cudaStream_t);
typedef int (*Recv)(void *, size_t, int, int, ncclComm_t, cudaStream_t);
typedef int (*Version)(int *);
typedef const char *(*ErrorString)(int);

struct Nccl {
  InitAll init_all = nullptr;
  Group group_start = nullptr, group_end = nullptr;
  Send send = nullptr;
  Recv recv = nullptr;
  Version version = nullptr;
  ErrorString error = nullptr;
  bool load() {
    const char *names[] = {getenv("NCCL_LIB"), "libnccl.so.2", "libnccl.so"};
    void *h = nullptr;
    for (const char *n : names)
      if (n && (h = dlopen(n, RTLD_NOW | RTLD_GLOBAL))) {
        printf("NCCL library: %s\n", n);
        break;
      }
    if (!h) {
      printf("NCCL: not found (%s)\n", dlerror());
      return false;
    }
    init_all = (InitAll)dlsym(h, "ncclCommInitAll");
    group_start = (Group)dlsym(h, "ncclGroupStart");
    group_end = (Group)dlsym(h, "ncclGroupEnd");
    send = (Send)dlsym(h, "ncclSend");
    recv = (Recv)dlsym(h, "ncclRecv");
    version = (Version)dlsym(h, "ncclGetVersion");
    error = (ErrorString)dlsym(h, "ncclGetErrorString");
    return init_all && group_start && group_end && send && recv && version && error;
  }
};

static const int kNcclUint8 = 1;

__global__ void fill(uint32_t *p, size_t words, uint32_t card, size_t chunk_words) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
    p[i] = (card << 24) ^ (uint32_t)(i / chunk_words) << 16 ^ (uint32_t)(i % 65536);
}

struct Sources {
  const int4 *src[8];
};

// Card `me` gathers chunk `me` of every card's send buffer into its receive buffer.
// `ring`: card `me` reads its own chunk first, then card me+1's, ... (otherwise 0, 1, ...).
__global__ void pull(Sources s, int4 *recv, int cards, int me, size_t chunk_vecs, int ring) {
  size_t total = chunk_vecs * cards;
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < total; j += (size_t)gridDim.x * blockDim.x) {
    size_t i = ring ? (j + me * chunk_vecs) % total : j;
    size_t from = i / chunk_vecs, k = i % chunk_vecs;
    recv[i] = s.src[from][me * chunk_vecs + k];
  }
}

static double wall_ms(const std::function<void()> &launch, int cards) {
  for (int d = 0; d < cards; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceSynchronize());
  }
  auto t0 = std::chrono::steady_clock::now();
  launch();
  for (int d = 0; d < cards; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceSynchronize());
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

static double median_ms(const std::function<void()> &launch, int cards) {
  std::vector<double> t;
  for (int r = 0; r < 11; ++r) {
    double ms = wall_ms(launch, cards);
    if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Every chunk i of card j's receive buffer must be chunk j of card i's send buffer.
static bool check(const std::vector<uint32_t *> &recv, int cards, size_t bytes) {
  size_t chunk_words = bytes / 4 / cards;
  std::vector<uint32_t> h(bytes / 4);
  for (int j = 0; j < cards; ++j) {
    CK(cudaSetDevice(j));
    CK(cudaMemcpy(h.data(), recv[j], bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < cards; ++i)
      for (size_t k = 0; k < chunk_words; k += 4099) {
        size_t src_index = j * chunk_words + k;
        uint32_t want = ((uint32_t)i << 24) ^ (uint32_t)j << 16 ^ (uint32_t)(src_index % 65536);
        if (h[i * chunk_words + k] != want) return false;
      }
    CK(cudaMemset(recv[j], 0, bytes));
  }
  return true;
}

int main(int argc, char **argv) {
  int cards = argc > 1 ? atoi(argv[1]) : 2;
  const char *sizes = argc > 2 ? argv[2] : "64 256 1024";
  int have = 0;
  CK(cudaGetDeviceCount(&have));
  if (cards > have || cards > 8 || cards < 2) {
    printf("need 2..8 cards, %d asked, %d present\n", cards, have);
    return 1;
  }
  for (int i = 0; i < cards; ++i)
    for (int j = 0; j < cards; ++j)
      if (i != j) {
        int ok = 0;
        CK(cudaDeviceCanAccessPeer(&ok, i, j));
        CK(cudaSetDevice(i));
        if (ok) cudaDeviceEnablePeerAccess(j, 0);
        if (!ok) printf("NOTE no peer access %d -> %d\n", i, j);
      }
  Nccl nccl;
  bool have_nccl = nccl.load();
  std::vector<ncclComm_t> comms(cards);
  if (have_nccl) {
    int v = 0;
    nccl.version(&v);
    std::vector<int> devs(cards);
    for (int i = 0; i < cards; ++i) devs[i] = i;
    int r = nccl.init_all(comms.data(), cards, devs.data());
    printf("NCCL %d, ncclCommInitAll = %d (%s)\n", v, r, nccl.error(r));
    have_nccl = r == 0;
  }
  std::vector<cudaStream_t> streams(cards);
  for (int d = 0; d < cards; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
  }
  printf("| cards | MiB per card | method | ms | GB/s out of each card | checked |\n|---|---|---|---|---|---|\n");
  char buf[256];
  strncpy(buf, sizes, sizeof buf - 1);
  buf[sizeof buf - 1] = 0;
  for (char *t = strtok(buf, " "); t; t = strtok(nullptr, " ")) {
    size_t bytes = (size_t)atoll(t) << 20;
    bytes -= bytes % (16 * cards);
    size_t chunk = bytes / cards;
    std::vector<uint32_t *> send(cards), recv(cards);
    for (int d = 0; d < cards; ++d) {
      CK(cudaSetDevice(d));
      CK(cudaMalloc(&send[d], bytes));
      CK(cudaMalloc(&recv[d], bytes));
      fill<<<1024, 256>>>(send[d], bytes / 4, d, chunk / 4);
      CK(cudaGetLastError());
    }
    double out_gb = (double)bytes * (cards - 1) / cards / 1e9;
    auto report = [&](const char *method, const std::function<void()> &launch) {
      double ms = median_ms(launch, cards);
      bool ok = check(recv, cards, bytes);
      printf("| %d | %zu | %s | %.3f | %.1f | %s |\n", cards, bytes >> 20, method, ms, out_gb / (ms * 1e-3),
             ok ? "yes" : "WRONG");
      fflush(stdout);
    };
    if (have_nccl)
      report("nccl", [&] {
        nccl.group_start();
        for (int i = 0; i < cards; ++i)
          for (int j = 0; j < cards; ++j) {
            nccl.send((char *)send[i] + j * chunk, chunk, kNcclUint8, j, comms[i], streams[i]);
            nccl.recv((char *)recv[i] + j * chunk, chunk, kNcclUint8, j, comms[i], streams[i]);
          }
        int r = nccl.group_end();
        if (r) printf("NOTE ncclGroupEnd = %d (%s)\n", r, nccl.error(r));
      });
    for (int ring = 0; ring < 2; ++ring) {
      report(ring ? "memcpy-ring" : "memcpy", [&] {
        for (int i = 0; i < cards; ++i) {
          CK(cudaSetDevice(i));
          for (int k = 0; k < cards; ++k) {
            int j = ring ? (i + k) % cards : k;
            CK(cudaMemcpyPeerAsync((char *)recv[j] + i * chunk, j, (char *)send[i] + j * chunk, i, chunk, streams[i]));
          }
        }
      });
      report(ring ? "pull-ring" : "pull", [&] {
        Sources s;
        for (int i = 0; i < cards; ++i) s.src[i] = (const int4 *)send[i];
        for (int j = 0; j < cards; ++j) {
          CK(cudaSetDevice(j));
          pull<<<132 * 8, 256, 0, streams[j]>>>(s, (int4 *)recv[j], cards, j, chunk / 16, ring);
          CK(cudaGetLastError());
        }
      });
    }
    for (int d = 0; d < cards; ++d) {
      CK(cudaSetDevice(d));
      CK(cudaFree(send[d]));
      CK(cudaFree(recv[d]));
    }
  }
  return 0;
}
