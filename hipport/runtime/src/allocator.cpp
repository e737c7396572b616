// The caching device allocator behind <hipport/allocator.h>.
//
// Structure follows PyTorch's CUDACachingAllocator (which users already know how to read the
// statistics of): per device a small and a large BlockPool of free blocks ordered by
// (stream, size, address) for best fit; blocks carved from hipMalloc'ed segments form a
// doubly linked list per segment so that freeing can merge neighbours; blocks freed while
// other streams may still use them wait on events.  One mutex per device guards its pools and
// statistics; a separate mutex guards the pointer -> block map (taken first, never inside a
// device lock), so threads on different devices do not contend.
//
// Compiled with -DHIPPORT_HOST_BACKEND it runs on the simulated runtime of <hipport/host_hip.h>
// (tests and benchmarks on machines without a GPU); otherwise on HIP.

#include <hipport/allocator.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#if defined(HIPPORT_HOST_BACKEND) && defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define HIPPORT_ASAN 1
#  endif
#endif
#if defined(HIPPORT_HOST_BACKEND) && defined(__SANITIZE_ADDRESS__)
#  define HIPPORT_ASAN 1
#endif
#if defined(HIPPORT_ASAN)
#  include <sanitizer/asan_interface.h>
// Host backend only: device memory is host memory, so cached free blocks can be poisoned and
// any access to a block the program no longer owns is reported by AddressSanitizer.  Only
// small-pool memory is poisoned: (un)poisoning 20 MiB segments costs megabytes of shadow
// writes each time, which made the stress test slow without finding anything more.
#  define HIPPORT_POISON(pool, p, n) \
    do { if ((pool)->is_small) ASAN_POISON_MEMORY_REGION((p), (n)); } while (0)
#  define HIPPORT_UNPOISON(pool, p, n) \
    do { if ((pool)->is_small) ASAN_UNPOISON_MEMORY_REGION((p), (n)); } while (0)
#else
#  define HIPPORT_POISON(pool, p, n) ((void)(p), (void)(n))
#  define HIPPORT_UNPOISON(pool, p, n) ((void)(p), (void)(n))
#endif

namespace hipport {
namespace {

constexpr size_t kMinBlockSize = 512;          // every size is rounded up to a multiple of this
constexpr size_t kSmallSize = 1u << 20;        // largest request served by the small pool
constexpr size_t kSmallBuffer = 2u << 20;      // segment size of the small pool
constexpr size_t kMinLargeAlloc = 10u << 20;   // requests below this get a kLargeBuffer segment
constexpr size_t kLargeBuffer = 20u << 20;
constexpr size_t kRoundLarge = 2u << 20;       // larger segments are rounded to this

struct Block;

struct BlockLess {
  bool operator()(const Block* a, const Block* b) const;
};

struct BlockPool {
  explicit BlockPool(bool small) : is_small(small) {}
  std::set<Block*, BlockLess> blocks;
  const bool is_small;
};

struct Block {
  Block(int dev, hipStream_t s, size_t sz, BlockPool* p, char* address)
      : device(dev), stream(s), size(sz), pool(p), ptr(address) {}
  int device;
  hipStream_t stream;            // owning stream: reused only there
  size_t size;
  size_t requested_size = 0;     // as asked by the caller, for requested_bytes
  BlockPool* pool;               // nullptr: uncached (caching disabled)
  char* ptr;
  bool allocated = false;
  Block* prev = nullptr;         // neighbours in the same segment
  Block* next = nullptr;
  int event_count = 0;           // outstanding events before the block may be reused
  std::vector<hipStream_t> stream_uses;

  bool is_split() const { return prev != nullptr || next != nullptr; }
};

bool BlockLess::operator()(const Block* a, const Block* b) const {
  if (a->stream != b->stream) return reinterpret_cast<uintptr_t>(a->stream) < reinterpret_cast<uintptr_t>(b->stream);
  if (a->size != b->size) return a->size < b->size;
  return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr);
}

bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

// Make `device` current for the lifetime of the guard (hipMalloc, hipFree and event records
// act on the current device).
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    if (hipGetDevice(&previous_) == hipSuccess && previous_ != device) {
      changed_ = hipSetDevice(device) == hipSuccess;
    }
  }
  ~DeviceGuard() {
    if (changed_) (void)hipSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

void stat_increase(hipportStat_t& stat, int64_t amount) {
  stat.current += amount;
  stat.peak = std::max(stat.peak, stat.current);
  stat.allocated += amount;
}

void stat_decrease(hipportStat_t& stat, int64_t amount) {
  stat.current -= amount;
  stat.freed += amount;
}

size_t round_size(size_t size) {
  if (size < kMinBlockSize) return kMinBlockSize;
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

size_t allocation_size(size_t size) {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);
}

void json_pointer(std::string& out, const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "\"0x%" PRIxPTR "\"", reinterpret_cast<uintptr_t>(p));
  out += buf;
}

void json_number(std::string& out, uint64_t value) { out += std::to_string(value); }

class DeviceAllocator {
 public:
  explicit DeviceAllocator(int device) : device_(device), small_(true), large_(false) {}

  hipError_t malloc(size_t requested, hipStream_t stream, bool caching, Block** out) {
    std::lock_guard<std::mutex> lock(mu_);
    DeviceGuard guard(device_);
    if (!caching) return malloc_uncached(requested, stream, out);
    if (requested > SIZE_MAX - kRoundLarge) {  // rounding would overflow: no device has this
      stats_.num_ooms += 1;
      return hipErrorOutOfMemory;
    }
    process_events();
    const size_t size = round_size(requested);
    BlockPool& pool = size <= kSmallSize ? small_ : large_;
    Block* block = take_free_block(pool, stream, size);
    if (block == nullptr) {
      hipError_t err = alloc_segment(pool, stream, allocation_size(size), &block);
      if (err != hipSuccess) {
        // Out of memory: give every cached segment back to the device and try once more.
        stats_.num_alloc_retries += 1;
        (void)release_cached_blocks();
        err = alloc_segment(pool, stream, allocation_size(size), &block);
      }
      if (err != hipSuccess) {
        stats_.num_ooms += 1;
        return err;
      }
    }
    *out = hand_out(block, size, requested);
    return hipSuccess;
  }

  // The caller no longer uses the block (it was removed from the pointer map).
  hipError_t free(Block* block, hipStream_t stream, bool stream_given) {
    std::lock_guard<std::mutex> lock(mu_);
    DeviceGuard guard(device_);
    if (block->pool == nullptr) return free_uncached(block);
    if (stream_given && stream != block->stream) add_stream_use(block, stream);
    block->allocated = false;
    update_stats(block, [&](size_t t) {
      stat_decrease(stats_.allocation[t], 1);
      stat_decrease(stats_.allocated_bytes[t], static_cast<int64_t>(block->size));
      // Unlike PyTorch (which waits for free_block), requested bytes leave with allocated
      // bytes, so the two stay comparable: requested <= allocated at every moment.
      stat_decrease(stats_.requested_bytes[t], static_cast<int64_t>(block->requested_size));
    });
    block->requested_size = 0;
    if (!block->stream_uses.empty()) {
      insert_events(block);
    } else {
      free_block(block);
    }
    return hipSuccess;
  }

  void record_stream(Block* block, hipStream_t stream) {
    std::lock_guard<std::mutex> lock(mu_);
    if (block->pool != nullptr && stream != block->stream) add_stream_use(block, stream);
  }

  hipError_t empty_cache() {
    std::lock_guard<std::mutex> lock(mu_);
    DeviceGuard guard(device_);
    hipError_t err = release_cached_blocks();
    for (hipEvent_t event : event_pool_) (void)hipEventDestroy(event);
    event_pool_.clear();
    return err;
  }

  hipportMemoryStats_t stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }

  void reset_peaks() {
    std::lock_guard<std::mutex> lock(mu_);
    hipportStat_t* arrays[] = {stats_.allocation,      stats_.segment,         stats_.active,
                               stats_.inactive_split,  stats_.allocated_bytes, stats_.reserved_bytes,
                               stats_.active_bytes,    stats_.inactive_split_bytes, stats_.requested_bytes};
    for (hipportStat_t* array : arrays)
      for (int t = 0; t < HIPPORT_STAT_TYPES; ++t) array[t].peak = array[t].current;
  }

  // {"device": N, "segments": [...]} with every segment's blocks in address order.
  void snapshot(std::string& out) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Block*> heads;
    auto consider = [&](Block* b) {
      if (b->prev == nullptr) heads.push_back(b);
    };
    for (Block* b : small_.blocks) consider(b);
    for (Block* b : large_.blocks) consider(b);
    for (Block* b : active_) consider(b);
    std::sort(heads.begin(), heads.end(),
              [](const Block* a, const Block* b) { return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr); });
    out += "{\"device\":";
    json_number(out, static_cast<uint64_t>(device_));
    out += ",\"segments\":[";
    for (size_t i = 0; i < heads.size(); ++i) {
      const Block* head = heads[i];
      size_t total = 0, allocated = 0, active = 0, requested = 0;
      for (const Block* b = head; b != nullptr; b = b->next) {
        total += b->size;
        if (b->allocated) {
          allocated += b->size;
          requested += b->requested_size;
        }
        if (b->allocated || b->event_count > 0) active += b->size;
      }
      if (i) out += ',';
      out += "{\"address\":";
      json_pointer(out, head->ptr);
      out += ",\"total_size\":";
      json_number(out, total);
      out += ",\"allocated_size\":";
      json_number(out, allocated);
      out += ",\"active_size\":";
      json_number(out, active);
      out += ",\"requested_size\":";
      json_number(out, requested);
      out += ",\"stream\":";
      json_pointer(out, head->stream);
      out += ",\"segment_type\":\"";
      out += head->pool == nullptr ? "uncached" : (head->pool->is_small ? "small" : "large");
      out += "\",\"blocks\":[";
      for (const Block* b = head; b != nullptr; b = b->next) {
        if (b != head) out += ',';
        out += "{\"address\":";
        json_pointer(out, b->ptr);
        out += ",\"size\":";
        json_number(out, b->size);
        out += ",\"requested_size\":";
        json_number(out, b->allocated ? b->requested_size : 0);
        out += ",\"state\":\"";
        out += b->allocated ? "active_allocated" : (b->event_count > 0 ? "active_pending_free" : "inactive");
        out += "\"}";
      }
      out += "]}";
    }
    out += "]}";
  }

 private:
  template <typename F>
  void update_stats(const Block* block, F&& f) {
    f(HIPPORT_STAT_ALL);
    const bool small = block->pool != nullptr ? block->pool->is_small : block->size <= kSmallSize;
    f(small ? HIPPORT_STAT_SMALL_POOL : HIPPORT_STAT_LARGE_POOL);
  }

  void add_stream_use(Block* block, hipStream_t stream) {
    auto& uses = block->stream_uses;
    if (std::find(uses.begin(), uses.end(), stream) == uses.end()) uses.push_back(stream);
  }

  Block* take_free_block(BlockPool& pool, hipStream_t stream, size_t size) {
    Block key(device_, stream, size, &pool, nullptr);
    auto it = pool.blocks.lower_bound(&key);
    if (it == pool.blocks.end() || (*it)->stream != stream) return nullptr;
    Block* block = *it;
    pool.blocks.erase(it);
    return block;
  }

  hipError_t alloc_segment(BlockPool& pool, hipStream_t stream, size_t size, Block** out) {
    void* ptr = nullptr;
    hipError_t err = hipMalloc(&ptr, size);
    if (err != hipSuccess) {
      (void)hipGetLastError();  // do not leave the failure sticky for the caller's next check
      return err;
    }
    HIPPORT_POISON(&pool, ptr, size);
    Block* block = new Block(device_, stream, size, &pool, static_cast<char*>(ptr));
    stats_.num_device_alloc += 1;
    update_stats(block, [&](size_t t) {
      stat_increase(stats_.segment[t], 1);
      stat_increase(stats_.reserved_bytes[t], static_cast<int64_t>(size));
    });
    *out = block;
    return hipSuccess;
  }

  bool should_split(const Block* block, size_t size) const {
    const size_t remaining = block->size - size;
    return block->pool->is_small ? remaining >= kMinBlockSize : remaining > kSmallSize;
  }

  Block* hand_out(Block* block, size_t size, size_t requested) {
    const bool already_split = block->is_split();
    if (should_split(block, size)) {
      // The front `size` bytes become the handed-out block; the rest stays free in the pool.
      Block* remaining = block;
      block = new Block(device_, remaining->stream, size, remaining->pool, remaining->ptr);
      block->prev = remaining->prev;
      if (block->prev) block->prev->next = block;
      block->next = remaining;
      remaining->prev = block;
      remaining->ptr += size;
      remaining->size -= size;
      remaining->pool->blocks.insert(remaining);
      if (already_split) {
        update_stats(block, [&](size_t t) { stat_decrease(stats_.inactive_split_bytes[t], static_cast<int64_t>(size)); });
      } else {
        update_stats(block, [&](size_t t) {
          stat_increase(stats_.inactive_split_bytes[t], static_cast<int64_t>(remaining->size));
          stat_increase(stats_.inactive_split[t], 1);
        });
      }
    } else if (already_split) {
      update_stats(block, [&](size_t t) {
        stat_decrease(stats_.inactive_split_bytes[t], static_cast<int64_t>(block->size));
        stat_decrease(stats_.inactive_split[t], 1);
      });
    }
    block->allocated = true;
    block->requested_size = requested;
    active_.insert(block);
    HIPPORT_UNPOISON(block->pool, block->ptr, block->size);
    update_stats(block, [&](size_t t) {
      stat_increase(stats_.allocation[t], 1);
      stat_increase(stats_.allocated_bytes[t], static_cast<int64_t>(block->size));
      stat_increase(stats_.active[t], 1);
      stat_increase(stats_.active_bytes[t], static_cast<int64_t>(block->size));
      stat_increase(stats_.requested_bytes[t], static_cast<int64_t>(requested));
    });
    return block;
  }

  // Merge `src` into `dst` if it is free; returns the bytes merged.
  size_t try_merge(Block* dst, Block* src) {
    if (src == nullptr || src->allocated || src->event_count > 0 || !src->stream_uses.empty()) return 0;
    if (dst->prev == src) {
      dst->ptr = src->ptr;
      dst->prev = src->prev;
      if (dst->prev) dst->prev->next = dst;
    } else {
      dst->next = src->next;
      if (dst->next) dst->next->prev = dst;
    }
    const size_t merged = src->size;
    dst->size += merged;
    dst->pool->blocks.erase(src);
    delete src;
    return merged;
  }

  // The block is free and no stream needs it any more: back into its pool.
  void free_block(Block* block) {
    const int64_t original_size = static_cast<int64_t>(block->size);
    HIPPORT_POISON(block->pool, block->ptr, block->size);
    int64_t split_blocks = 0, split_bytes = 0;
    for (Block* neighbour : {block->prev, block->next}) {
      const size_t merged = try_merge(block, neighbour);
      if (merged > 0) {
        split_blocks -= 1;
        split_bytes -= static_cast<int64_t>(merged);
      }
    }
    active_.erase(block);
    block->pool->blocks.insert(block);
    if (block->is_split()) {
      split_blocks += 1;
      split_bytes += static_cast<int64_t>(block->size);
    }
    update_stats(block, [&](size_t t) {
      if (split_blocks > 0) stat_increase(stats_.inactive_split[t], split_blocks);
      if (split_blocks < 0) stat_decrease(stats_.inactive_split[t], -split_blocks);
      if (split_bytes > 0) stat_increase(stats_.inactive_split_bytes[t], split_bytes);
      if (split_bytes < 0) stat_decrease(stats_.inactive_split_bytes[t], -split_bytes);
      stat_decrease(stats_.active[t], 1);
      stat_decrease(stats_.active_bytes[t], original_size);
    });
  }

  hipEvent_t get_event() {
    if (!event_pool_.empty()) {
      hipEvent_t event = event_pool_.back();
      event_pool_.pop_back();
      return event;
    }
    hipEvent_t event = nullptr;
    if (hipEventCreateWithFlags(&event, hipEventDisableTiming) != hipSuccess) {
      (void)hipGetLastError();
      return nullptr;
    }
    return event;
  }

  void insert_events(Block* block) {
    std::vector<hipStream_t> uses;
    uses.swap(block->stream_uses);
    for (hipStream_t stream : uses) {
      hipEvent_t event = get_event();
      if (event != nullptr && hipEventRecord(event, stream) == hipSuccess) {
        block->event_count += 1;
        events_.emplace_back(event, block);
        continue;
      }
      // No event: wait for the stream now rather than risk handing out memory it still uses.
      (void)hipGetLastError();
      if (event != nullptr) event_pool_.push_back(event);
      (void)hipStreamSynchronize(stream);
    }
    if (block->event_count == 0) free_block(block);
  }

  void event_done(hipEvent_t event, Block* block) {
    event_pool_.push_back(event);
    if (--block->event_count == 0) free_block(block);
  }

  // Free the blocks whose events have all completed.
  void process_events() {
    for (auto it = events_.begin(); it != events_.end();) {
      const hipError_t status = hipEventQuery(it->first);
      if (status == hipErrorNotReady) {
        ++it;
        continue;
      }
      if (status != hipSuccess) {  // a broken event: keep waiting on it would leak the block
        (void)hipGetLastError();
        (void)hipEventSynchronize(it->first);
      }
      auto done = *it;
      it = events_.erase(it);
      event_done(done.first, done.second);
    }
  }

  hipError_t release_cached_blocks() {
    if (!events_.empty()) stats_.num_sync_all_streams += 1;
    while (!events_.empty()) {
      auto done = events_.front();
      events_.pop_front();
      if (hipEventSynchronize(done.first) != hipSuccess) (void)hipGetLastError();
      event_done(done.first, done.second);
    }
    hipError_t result = hipSuccess;
    for (BlockPool* pool : {&small_, &large_}) {
      for (auto it = pool->blocks.begin(); it != pool->blocks.end();) {
        Block* block = *it;
        if (block->is_split()) {
          ++it;
          continue;
        }
        it = pool->blocks.erase(it);
        HIPPORT_UNPOISON(pool, block->ptr, block->size);
        const hipError_t err = hipFree(block->ptr);
        if (err != hipSuccess) {
          (void)hipGetLastError();
          result = err;
        }
        stats_.num_device_free += 1;
        update_stats(block, [&](size_t t) {
          stat_decrease(stats_.segment[t], 1);
          stat_decrease(stats_.reserved_bytes[t], static_cast<int64_t>(block->size));
        });
        delete block;
      }
    }
    return result;
  }

  hipError_t malloc_uncached(size_t size, hipStream_t stream, Block** out) {
    void* ptr = nullptr;
    const hipError_t err = hipMalloc(&ptr, size);
    if (err != hipSuccess) {
      (void)hipGetLastError();
      stats_.num_ooms += 1;
      return err;
    }
    Block* block = new Block(device_, stream, size, nullptr, static_cast<char*>(ptr));
    block->allocated = true;
    block->requested_size = size;
    active_.insert(block);
    stats_.num_device_alloc += 1;
    update_stats(block, [&](size_t t) {
      stat_increase(stats_.segment[t], 1);
      stat_increase(stats_.reserved_bytes[t], static_cast<int64_t>(size));
      stat_increase(stats_.allocation[t], 1);
      stat_increase(stats_.allocated_bytes[t], static_cast<int64_t>(size));
      stat_increase(stats_.active[t], 1);
      stat_increase(stats_.active_bytes[t], static_cast<int64_t>(size));
      stat_increase(stats_.requested_bytes[t], static_cast<int64_t>(size));
    });
    *out = block;
    return hipSuccess;
  }

  hipError_t free_uncached(Block* block) {
    active_.erase(block);
    hipError_t err = hipFree(block->ptr);
    if (err != hipSuccess) (void)hipGetLastError();
    stats_.num_device_free += 1;
    const int64_t size = static_cast<int64_t>(block->size);
    update_stats(block, [&](size_t t) {
      stat_decrease(stats_.segment[t], 1);
      stat_decrease(stats_.reserved_bytes[t], size);
      stat_decrease(stats_.allocation[t], 1);
      stat_decrease(stats_.allocated_bytes[t], size);
      stat_decrease(stats_.active[t], 1);
      stat_decrease(stats_.active_bytes[t], size);
      stat_decrease(stats_.requested_bytes[t], size);
    });
    delete block;
    return err;
  }

  const int device_;
  std::mutex mu_;
  BlockPool small_;
  BlockPool large_;
  std::unordered_set<Block*> active_;                   // allocated, or freed and awaiting events
  std::deque<std::pair<hipEvent_t, Block*>> events_;    // outstanding cross-stream uses
  std::vector<hipEvent_t> event_pool_;
  hipportMemoryStats_t stats_{};
};

// Process-wide state.  Created on first use and never destroyed: blocks may be freed from
// static destructors of user code after this file's statics would have gone, and the HIP
// runtime may already be torn down at exit.
class Allocator {
 public:
  static Allocator& get() {
    static Allocator* instance = new Allocator();
    return *instance;
  }

  bool caching() const { return caching_; }

  DeviceAllocator* device(int index) {
    if (index < 0 || static_cast<size_t>(index) >= devices_.size()) return nullptr;
    return devices_[static_cast<size_t>(index)].get();
  }

  size_t device_count() const { return devices_.size(); }

  hipError_t malloc(void** ptr, size_t size, hipStream_t stream) {
    if (ptr == nullptr) return hipErrorInvalidValue;
    *ptr = nullptr;
    if (size == 0) return hipSuccess;
    if (devices_.empty()) return init_error_ != hipSuccess ? init_error_ : hipErrorNoDevice;
    int index = 0;
    hipError_t err = hipGetDevice(&index);
    if (err != hipSuccess) return err;
    DeviceAllocator* dev = device(index);
    if (dev == nullptr) return hipErrorInvalidDevice;
    Block* block = nullptr;
    err = dev->malloc(size, stream, caching_, &block);
    if (err != hipSuccess) return err;
    {
      std::lock_guard<std::mutex> lock(map_mu_);
      blocks_[block->ptr] = block;
    }
    *ptr = block->ptr;
    return hipSuccess;
  }

  hipError_t free(void* ptr, hipStream_t stream, bool stream_given) {
    if (ptr == nullptr) return hipSuccess;
    Block* block = nullptr;
    {
      std::lock_guard<std::mutex> lock(map_mu_);
      auto it = blocks_.find(ptr);
      if (it != blocks_.end()) {
        block = it->second;
        blocks_.erase(it);
      }
    }
    if (block == nullptr) return hipFree(ptr);  // not ours: allocated by plain hipMalloc
    return device(block->device)->free(block, stream, stream_given);
  }

  hipError_t record_stream(void* ptr, hipStream_t stream) {
    if (ptr == nullptr) return hipSuccess;
    std::lock_guard<std::mutex> lock(map_mu_);  // keeps the block alive while it is marked
    auto it = blocks_.find(ptr);
    if (it == blocks_.end()) return hipErrorInvalidValue;
    device(it->second->device)->record_stream(it->second, stream);
    return hipSuccess;
  }

 private:
  Allocator() : caching_(!env_flag("HIPPORT_NO_CACHING") && !env_flag("PYTORCH_NO_CUDA_MEMORY_CACHING")) {
    int count = 0;
    init_error_ = hipGetDeviceCount(&count);
    if (init_error_ != hipSuccess) {  // e.g. hipErrorNoDevice: every allocation reports it
      (void)hipGetLastError();
      count = 0;
    }
    for (int i = 0; i < count; ++i) devices_.emplace_back(new DeviceAllocator(i));
  }

  const bool caching_;
  hipError_t init_error_ = hipSuccess;
  std::vector<std::unique_ptr<DeviceAllocator>> devices_;
  std::mutex map_mu_;
  std::unordered_map<void*, Block*> blocks_;  // pointers handed out and not yet freed
};

}  // namespace
}  // namespace hipport

using hipport::Allocator;

extern "C" {

hipError_t hipportMalloc(void** ptr, size_t size) { return Allocator::get().malloc(ptr, size, nullptr); }

hipError_t hipportMallocAsync(void** ptr, size_t size, hipStream_t stream) {
  return Allocator::get().malloc(ptr, size, stream);
}

hipError_t hipportFree(void* ptr) { return Allocator::get().free(ptr, nullptr, false); }

hipError_t hipportFreeAsync(void* ptr, hipStream_t stream) { return Allocator::get().free(ptr, stream, true); }

hipError_t hipportRecordStream(void* ptr, hipStream_t stream) { return Allocator::get().record_stream(ptr, stream); }

hipError_t hipportEmptyCache(void) {
  Allocator& a = Allocator::get();
  hipError_t result = hipSuccess;
  for (size_t i = 0; i < a.device_count(); ++i) {
    const hipError_t err = a.device(static_cast<int>(i))->empty_cache();
    if (err != hipSuccess) result = err;
  }
  return result;
}

static hipportMemoryStats_t stats_or_zero(int device) {
  hipport::DeviceAllocator* dev = Allocator::get().device(device);
  hipportMemoryStats_t stats{};
  if (dev != nullptr) stats = dev->stats();
  return stats;
}

size_t hipportMemoryAllocated(int device) {
  return static_cast<size_t>(stats_or_zero(device).allocated_bytes[HIPPORT_STAT_ALL].current);
}

size_t hipportMaxMemoryAllocated(int device) {
  return static_cast<size_t>(stats_or_zero(device).allocated_bytes[HIPPORT_STAT_ALL].peak);
}

size_t hipportMemoryReserved(int device) {
  return static_cast<size_t>(stats_or_zero(device).reserved_bytes[HIPPORT_STAT_ALL].current);
}

size_t hipportMaxMemoryReserved(int device) {
  return static_cast<size_t>(stats_or_zero(device).reserved_bytes[HIPPORT_STAT_ALL].peak);
}

hipError_t hipportResetPeakMemoryStats(int device) {
  hipport::DeviceAllocator* dev = Allocator::get().device(device);
  if (dev == nullptr) return hipErrorInvalidDevice;
  dev->reset_peaks();
  return hipSuccess;
}

hipError_t hipportMemoryStats(int device, hipportMemoryStats_t* out) {
  if (out == nullptr) return hipErrorInvalidValue;
  hipport::DeviceAllocator* dev = Allocator::get().device(device);
  if (dev == nullptr) return hipErrorInvalidDevice;
  *out = dev->stats();
  return hipSuccess;
}

size_t hipportMemorySnapshot(char* buf, size_t len) {
  Allocator& a = Allocator::get();
  std::string json = "{\"caching\":";
  json += a.caching() ? "true" : "false";
  json += ",\"devices\":[";
  for (size_t i = 0; i < a.device_count(); ++i) {
    if (i) json += ',';
    a.device(static_cast<int>(i))->snapshot(json);
  }
  json += "]}";
  if (buf != nullptr && len > 0) {
    const size_t n = std::min(len - 1, json.size());
    std::memcpy(buf, json.data(), n);
    buf[n] = '\0';
  }
  return json.size();
}

int hipportCachingEnabled(void) { return Allocator::get().caching() ? 1 : 0; }

}  // extern "C"
