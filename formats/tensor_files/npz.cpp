// NumPy .npz archives (zip files of NAME.npy members) through libzip.
// See docs/tensor-files.md for what is accepted and refused.
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "formats/tensor_files/npy.hpp"
#include "formats/tensor_files/npy_internal.hpp"

namespace nnref {

namespace {

// No member may declare (or inflate to) more than this.
constexpr uint64_t kMaxMemberBytes = uint64_t{8} << 30;  // 8 GiB

Diagnostic npz_error(const std::string& name, std::string code, std::string message) {
  return make_error(std::move(code), std::move(message), SourceLoc{name, 0, 0});
}

bool ends_with_npy(const std::string& s) {
  return s.size() >= 4 && s.compare(s.size() - 4, 4, ".npy") == 0;
}

// Closes (without writing) whatever archive it holds.
struct ArchiveGuard {
  zip_t* za = nullptr;
  ~ArchiveGuard() {
    if (za) zip_discard(za);
  }
};

struct FileGuard {
  zip_file_t* zf = nullptr;
  ~FileGuard() {
    if (zf) zip_fclose(zf);
  }
};

// A zip archive with no entries: just the end-of-central-directory record. (libzip removes an
// archive that has no entries on close instead of writing it.)
const uint8_t kEmptyZip[22] = {'P', 'K', 5, 6};

}  // namespace

Result<NamedTensors> parse_npz(std::span<const uint8_t> bytes, const std::string& name, uint64_t max_bytes) {
  if (bytes.empty()) return npz_error(name, "npz.bad-zip", "not a zip archive: the file is empty");

  zip_error_t ze;
  zip_error_init(&ze);
  zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &ze);
  if (!src) {
    std::string why = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return npz_error(name, "npz.bad-zip", "cannot read the archive: " + why);
  }
  ArchiveGuard archive;
  archive.za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
  if (!archive.za) {
    zip_source_free(src);  // not taken over by the archive on failure
    std::string why = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return npz_error(name, "npz.bad-zip", "not a valid zip archive: " + why);
  }
  zip_error_fini(&ze);

  const zip_int64_t entries = zip_get_num_entries(archive.za, 0);
  if (entries < 0) return npz_error(name, "npz.bad-zip", "cannot count the archive's members");

  NamedTensors out;
  std::set<std::string> seen;
  uint64_t stated_total = 0;
  for (zip_int64_t i = 0; i < entries; ++i) {
    const zip_uint64_t index = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive.za, index, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) || !st.name)
      return npz_error(name, "npz.bad-zip",
                       "member " + std::to_string(i) + ": " + std::string(zip_strerror(archive.za)));
    const std::string member = st.name;
    const std::string at = "member " + std::to_string(i) + " '" + member + "'";
    if (!ends_with_npy(member))
      return npz_error(name, "npz.bad-member", at + " is not a .npy file (an .npz holds only NAME.npy members)");
    const std::string key = member.substr(0, member.size() - 4);
    if (!seen.insert(key).second) return npz_error(name, "npz.duplicate-member", at + " appears more than once");
    if (!(st.valid & ZIP_STAT_SIZE))
      return npz_error(name, "npz.bad-zip", at + " has no stated uncompressed size");
    if (st.size > kMaxMemberBytes)
      return npz_error(name, "npz.member-too-large",
                       at + " states an uncompressed size of " + std::to_string(st.size) + " bytes, over the " +
                           std::to_string(kMaxMemberBytes) + "-byte limit");
    if (__builtin_add_overflow(stated_total, st.size, &stated_total)) stated_total = UINT64_MAX;
    if (stated_total > max_bytes)
      return npz_error(name, "size.budget",
                       at + " brings the archive's uncompressed size to " + std::to_string(stated_total) +
                           " bytes, over the budget of " + std::to_string(max_bytes));

    FileGuard file;
    file.zf = zip_fopen_index(archive.za, index, 0);
    if (!file.zf)
      return npz_error(name, "npz.bad-zip", at + " cannot be opened: " + std::string(zip_strerror(archive.za)));

    // Never trust the stated size: grow with the data actually inflated, refuse anything past
    // st.size, and read to the end so that libzip checks the CRC.
    std::vector<uint8_t> data;
    data.reserve(static_cast<size_t>(std::min<zip_uint64_t>(st.size, zip_uint64_t{1} << 24)));
    uint8_t chunk[1 << 16];
    while (true) {
      const zip_int64_t r = zip_fread(file.zf, chunk, sizeof chunk);
      if (r < 0)
        return npz_error(name, "npz.bad-zip", at + " is corrupt: " + std::string(zip_file_strerror(file.zf)));
      if (r == 0) break;
      if (data.size() + static_cast<uint64_t>(r) > st.size)
        return npz_error(name, "npz.bad-zip",
                         at + " holds more than its stated uncompressed size of " + std::to_string(st.size) + " bytes");
      data.insert(data.end(), chunk, chunk + r);
    }
    if (data.size() != st.size)
      return npz_error(name, "npz.bad-zip",
                       at + " holds " + std::to_string(data.size()) + " bytes, not its stated " +
                           std::to_string(st.size));

    auto t = parse_npy(data, name);
    if (!t) {
      Diagnostic d = std::move(t).error();
      d.message = at + ": " + d.message;
      d.node = key;
      return d;
    }
    out.emplace_back(key, std::move(t).value());
  }
  return out;
}

Result<NamedTensors> read_npz(const std::string& path, uint64_t max_bytes) {
  auto bytes = npy_detail::read_file_bytes(path);
  if (!bytes) return std::move(bytes).error();
  return parse_npz(*bytes, path, max_bytes);
}

Status write_npz(const std::string& path, const NamedTensors& tensors) {
  std::set<std::string> seen;
  std::vector<std::vector<uint8_t>> encoded;
  encoded.reserve(tensors.size());
  for (const auto& [key, t] : tensors) {
    if (key.empty() || key.find('\0') != std::string::npos)
      return npz_error(path, "npz.bad-name", "a tensor name is empty or contains NUL");
    if (!seen.insert(key).second) return npz_error(path, "npz.bad-name", "tensor name '" + key + "' appears twice");
    auto ok = check_npy_encodable(t, path);
    if (!ok) {
      Diagnostic d = std::move(ok).error();
      d.message = "tensor '" + key + "': " + d.message;
      d.node = key;
      return d;
    }
    encoded.push_back(encode_npy(t));
  }
  if (tensors.empty())
    return npy_detail::write_file_bytes(path, std::vector<uint8_t>(kEmptyZip, kEmptyZip + sizeof kEmptyZip));

  int zerr = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &zerr);
  if (!za) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, zerr);
    std::string why = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return npz_error(path, "io.write", "cannot write '" + path + "': " + why);
  }
  auto fail = [&](const std::string& what) {
    std::string why = zip_strerror(za);
    zip_discard(za);
    return npz_error(path, "io.write", "cannot write '" + path + "': " + what + why);
  };
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::string member = tensors[i].first + ".npy";
    zip_source_t* src = zip_source_buffer(za, encoded[i].data(), encoded[i].size(), 0);
    if (!src) return fail("");
    const zip_int64_t idx = zip_file_add(za, member.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
      zip_source_free(src);
      return fail("member '" + member + "': ");
    }
    if (zip_set_file_compression(za, static_cast<zip_uint64_t>(idx), ZIP_CM_STORE, 0) != 0)
      return fail("member '" + member + "': ");
  }
  if (zip_close(za) != 0) return fail("");  // the buffers in `encoded` live until here
  return {};
}

}  // namespace nnref
