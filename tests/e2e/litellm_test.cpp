// `pkb generate` through a LiteLLM proxy (a third-party server speaking the OpenAI, Anthropic and
// Gemini formats) on loopback, answering from `mock_response` so no provider is called: the
// openai-compat, anthropic and gemini clients each get an answer end to end. The test installs
// nothing: where `python3 -c "import litellm"` fails it is skipped with the reason (ctest label
// litellm; docs/MODELS.md says how to run it).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/e2e/run_pkb.h"

namespace pkb::test {
namespace {

// The proxy imports a lot before it listens: over two minutes on a busy two-core machine.
constexpr int kStartupSeconds = 300;
// The proxy refuses to start without a master key; every client sends it as its provider's key.
const char* const kMasterKey = "sk-pkb-litellm-test-7f3a9c2e5b8d4f1a6c0e9b2d7a4f8c3e";

const char* const kConfig = R"(model_list:
  - model_name: mock-model
    litellm_params:
      model: openai/mock-model
      api_key: sk-not-used
      mock_response: "Here it is.\n```cuda\nextern \"C\" __global__ void k() {}\n```\n```json\n{\"steps\": []}\n```\n"
general_settings:
  master_key: )";

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(fd);
  return ntohs(address.sin_port);
}

bool accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

// The proxy as a child process in its own process group, stopped with the group.
class Proxy {
 public:
  Proxy(const std::string& config, int port, const std::string& log) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      ::setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True", 1);  // no download at start
      const std::string port_text = std::to_string(port);
      std::freopen(log.c_str(), "w", stdout);
      std::freopen(log.c_str(), "a", stderr);
      ::execlp("python3", "python3", "-m", "litellm.proxy.proxy_cli", "--config", config.c_str(),
               "--host", "127.0.0.1", "--port", port_text.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Proxy() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGTERM);
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  bool running() const { return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0; }

 private:
  pid_t pid_ = -1;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(LiteLlmProxy, EveryClientGetsAnAnswerThroughTheProxy) {
  if (std::system("python3 -c 'import litellm' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "litellm is not importable by python3 (pip install 'litellm[proxy]' into the "
                    "python3 on PATH to run this test)";
  const std::string root = make_temp_dir("litellm");
  std::ofstream(root + "/config.yaml") << kConfig << kMasterKey << "\n";
  const int port = free_port();
  Proxy proxy(root + "/config.yaml", port, root + "/proxy.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kStartupSeconds);
  while (!accepts(port) && proxy.running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(accepts(port)) << "the proxy did not start:\n" << slurp(root + "/proxy.log");

  const std::string host = "http://127.0.0.1:" + std::to_string(port);
  for (const char* name : {"OPENAI_COMPAT_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"})
    setenv(name, kMasterKey, 1);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"openai-compat:mock-model", host + "/v1"},
      {"anthropic:mock-model", host + "/v1"},
      {"gemini:mock-model", host + "/v1beta"},
  };
  for (const auto& [model, base] : cases)
    for (const std::string stream : {"", " --no-stream"}) {
      const std::string out =
          root + "/" + model.substr(0, model.find(':')) + (stream.empty() ? "" : "-whole");
      const PkbRun run = run_pkb("-q generate --model " + model + " --base-url " + base +
                                 " --problems 1 --samples 2 --out " + out + stream);
      EXPECT_EQ(run.exit_code, 0) << model << stream << "\n"
                                  << run.err << "\nproxy log:\n"
                                  << slurp(root + "/proxy.log");
      std::ifstream in(out + "/samples.jsonl");
      std::string line;
      int generated = 0;
      while (std::getline(in, line))
        generated += nlohmann::json::parse(line).value("status", "") == "generated" ? 1 : 0;
      EXPECT_EQ(generated, 2) << model << stream;
    }
  for (const char* name : {"OPENAI_COMPAT_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"})
    unsetenv(name);
}

}  // namespace
}  // namespace pkb::test
