// `fairyzero selfplay RUN_DIR --worker ID`: a self-play worker, stopped cleanly by SIGTERM or
// SIGINT: it finishes the file in progress within --grace-seconds, else discards its games
// (a second signal discards at once); a file being written is always finished first. Exit
// status 0: the run has its last generation; kStoppedEarly: stopped before, start it again
// (schedulers requeue or restart on a non-zero status).
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "apps/arguments.h"
#include "apps/commands.h"
#include "training/learn/selfplay_worker.h"
#include "training/learn/train_run.h"

namespace fairyzero {
namespace {

constexpr int kStoppedEarly = 75;  // EX_TEMPFAIL: try again later

// Waits for SIGTERM/SIGINT (blocked in every thread, so only this one receives them).
void watch_signals(SelfPlayWorker& worker, double grace_seconds, const sigset_t& signals) {
  int signal = 0;
  if (sigwait(&signals, &signal) != 0) return;
  std::cout << "selfplay: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
            << ": finishing the file in progress (up to " << grace_seconds
            << " s; a second signal discards it)" << std::endl;
  worker.stop();
  timespec wait{static_cast<time_t>(grace_seconds),
                static_cast<long>((grace_seconds - static_cast<time_t>(grace_seconds)) * 1e9)};
  sigtimedwait(&signals, nullptr, &wait);  // a second signal, or the grace is over
  std::unique_lock publishing = worker.hold_publishing();
  worker.release_lease();
  std::cout << "selfplay: discarded the games in progress; the next start goes on from file "
            << worker.next_sequence() << std::endl;
  std::fflush(nullptr);
  std::_Exit(kStoppedEarly);
}

}  // namespace

int selfplay_command(const Arguments& args) {
  if (args.positional().size() != 1) throw UsageError("give the RUN_DIR and --worker ID");
  if (!args.value("--worker")) throw UsageError("a self-play worker needs --worker ID");
  const std::string& run_dir = args.positional()[0];
  // Launched beside the trainer, a worker may come first: it waits for the run to exist.
  if (!is_training_run(run_dir)) wait_for_run(run_dir, 600);
  if (auto variant = args.value("--variant")) {
    TrainingRun run(run_dir);
    require_run_rules(run, run_dir, load_variant_for_user(*variant));
  }
  WorkerOptions options;
  options.worker = static_cast<int>(args.integer("--worker", 0));
  options.games_per_file = static_cast<int>(args.integer("--games-per-file", 0));
  if (auto device = args.value("--device")) options.device = *device;
  const double grace = std::stod(args.value("--grace-seconds").value_or("20"));

  // Blocked before any thread starts, so every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  SelfPlayWorker worker(run_dir, options);
  std::thread watcher(watch_signals, std::ref(worker), grace, signals);
  watcher.detach();  // ends the process itself, or with it
  const bool finished = worker.run([](const std::string& line) { std::cout << line << std::endl; });
  return finished ? 0 : kStoppedEarly;
}

}  // namespace fairyzero
