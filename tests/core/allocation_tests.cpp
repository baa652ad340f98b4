// No heap allocation per request on the steady-state path of a small request, client and server
// together: this program counts every operator new, and a batch of calls after a warm-up must
// add none. The server runs in a thread of this same process, so both sides are counted.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "tests/core/orb_fixture.h"

namespace {
std::atomic<long> allocations{0};
}

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t alignment) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p =
          std::aligned_alloc(static_cast<std::size_t>(alignment), (size + static_cast<std::size_t>(alignment) - 1) &
                                                                      ~(static_cast<std::size_t>(alignment) - 1)))
    return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t alignment) { return operator new(size, alignment); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

TEST_CASE("small requests allocate nothing once warmed up", "[core][allocation]") {
  auto strategy = GENERATE("linear", "dynamic", "perfect", "active");
  // Every concurrency model: the default (adaptive, this one connection on a dedicated thread),
  // adaptive past its dedicated threads (an event loop serves inline), reactive, thread per
  // connection, and the worker pool (a loop frames, a worker serves and replies).
  auto model = GENERATE(values<std::vector<std::string>>({{},
                                                          {"-ORBDedicatedThreads", "0"},
                                                          {"-ORBConcurrency", "reactive"},
                                                          {"-ORBConcurrency", "thread-per-connection"},
                                                          {"-ORBThreads", "2"}}));
  std::vector<std::string> options{"-ORBServantDemux", strategy, "-ORBOperationDemux", strategy};
  options.insert(options.end(), model.begin(), model.end());
  test::serving_orb server(options);
  auto ttcp = std::make_shared<test::recording_ttcp>();
  auto probe = std::make_shared<test::test_probe>();
  auto ttcp_ior = server.orb->object_to_string(server.orb->root_adapter().activate(ttcp));
  auto probe_ior = server.orb->object_to_string(server.orb->root_adapter().activate(probe));
  server.start();

  auto client = switchyard::orb_init(std::vector<std::string>{});
  hand::ttcp_sequence_stub ttcp_stub(client->string_to_object(ttcp_ior));
  hand::probe_stub probe_stub(client->string_to_object(probe_ior));
  auto batch = [&](int n) {
    for (int i = 0; i < n; ++i) {
      ttcp_stub.sendNoParams_2way();
      ttcp_stub.sendNoParams_1way();
      REQUIRE(probe_stub.echo_long(i) == i);
    }
  };
  batch(200);  // warm-up: connection made, buffers grown, tables built
  long before = allocations.load();
  batch(1000);
  long during = allocations.load() - before;
  INFO("allocations during 3000 requests with " << strategy << " demultiplexing, model options '"
                                                << (model.empty() ? "(defaults)" : model[0] + " " + model[1])
                                                << "': " << during);
  CHECK(during == 0);
  CHECK(ttcp->oneway >= 1000);
}
