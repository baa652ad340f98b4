// An allocator that takes large blocks straight from the kernel (mmap) and gives them straight
// back (munmap), and small ones from operator new. For the buffers that peers make the server
// grow (receive buffers, reassembly, queued requests, unsent replies): malloc keeps freed large
// blocks in per-thread arenas, so a server whose threads each once held a large message stays
// that large; with these, resident memory follows what the budget allows (docs/orb.md, "Limits").
// Pages are touched only as octets arrive. Internal to the ORB.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

namespace switchyard {

// Blocks of at least this many octets are mapped.
inline constexpr std::size_t page_allocator_threshold = 128 * 1024;

template <class T>
struct page_allocator {
  using value_type = T;
  page_allocator() noexcept = default;
  template <class U>
  page_allocator(const page_allocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < page_allocator_threshold) return static_cast<T*>(::operator new(bytes));
    void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) throw std::bad_alloc();
    return static_cast<T*>(block);
  }
  void deallocate(T* block, std::size_t count) noexcept {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < page_allocator_threshold) ::operator delete(block);
    else ::munmap(block, bytes);
  }
  friend bool operator==(const page_allocator&, const page_allocator&) noexcept { return true; }
};

// One block of octets from page_allocator, owned (a receive buffer).
class page_block {
 public:
  page_block() noexcept = default;
  explicit page_block(std::size_t size) : data_(page_allocator<std::byte>().allocate(size)), size_(size) {}
  ~page_block() {
    if (data_ != nullptr) page_allocator<std::byte>().deallocate(data_, size_);
  }
  page_block(page_block&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  page_block& operator=(page_block&& other) noexcept {
    if (this != &other) {
      page_block gone(std::move(*this));
      data_ = other.data_;
      size_ = other.size_;
      other.data_ = nullptr;
      other.size_ = 0;
    }
    return *this;
  }
  std::byte* get() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace switchyard
