/*
 * etcd-guard: runs etcd in a member Pod, after checking that a member which has run before still has its data.
 *
 * etcd restarted on an emptied data directory takes its old member ID back and may vote with an empty log, so a
 * majority that lost its data can elect an empty leader (docs/operations.md, "The pre-start check"). The guard runs
 * before every start, also a container restart (which does not rerun init containers), and refuses such a start
 * with a termination message the operator reads as DataLost. It is static (etcd images have no libc or shell).
 *
 *   etcd-guard install DIR                          copy this binary to DIR/etcd-guard (the Pod's init container)
 *   etcd-guard [--expect-data] --state-dir=DIR [--recovery-file=FILE] [--force-flag=FLAG]... -- ETCD ARGS...
 *
 * --expect-data:   the operator knows the member has run (it is a voter), so its data must be there.
 * --state-dir:     an emptyDir of the Pod; a file there records that etcd of this Pod has written a WAL.
 * --recovery-file: the Pod's annotations (downward API). A new token in FORCE_ANNOTATION restarts etcd once, in the
 *                  same Pod, with --force-new-cluster: how a memory member that survived a lost quorum keeps its data.
 *                  Only while etcd reports no leader on its metrics listener (--listen-metrics-urls, for
 *                  LEADERLESS_POLLS polls in a row): a healthy member is never made a one-member cluster, whoever
 *                  wrote the annotation. Without a metrics listener the request is honoured as before.
 * --force-flag:    an etcd flag added to that one start beside --force-new-cluster (the operator passes the ones that
 *                  make joiners copy the survivor's whole database: docs/operations.md, "Quorum loss"). When the
 *                  request leaves the annotations, etcd is restarted without them.
 * Identity: DATA/member/etcd-operator-identity names the member and cluster token that own the directory.
 * An etcd that exits 0 unasked (it stops so once it applied its own removal) gets STOPPED_BY_ITSELF as termination
 * message: the operator replaces such a member once etcd's member list confirms it is gone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REFUSED 3
#define TERMINATION_LOG "/dev/termination-log"
#define FORCE_ANNOTATION "etcd-operator.cozystack.io/force-new-cluster"
#define STOP_SECONDS 60
#define LEADERLESS_POLLS 5
#define MAX_FORCE_FLAGS 4
#define STOPPED_BY_ITSELF \
  "etcd exited with code 0 without being asked to stop, as it does once it applied its own removal from the cluster"

static pid_t child;
static const char *force_flags[MAX_FORCE_FLAGS];
static int force_flag_count;
static volatile sig_atomic_t terminating;

static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("etcd-guard: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Says it on stderr and in the termination message, which the kubelet reports in the container's last state. */
static void report(const char *message) {
  say("%s", message);
  const char *path = getenv("ETCD_GUARD_TERMINATION_LOG"); // tests; Pods use the kubelet's default path
  FILE *log = fopen(path != NULL ? path : TERMINATION_LOG, "w");
  if (log != NULL) {
    fprintf(log, "etcd-guard: %s\n", message);
    fclose(log);
  }
}

/* Says why (see report), then exits without starting etcd. */
static void refuse(const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  report(message);
  exit(REFUSED);
}

static const char *flag(int argc, char **argv, const char *name) {
  size_t len = strlen(name);
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], name, len) == 0 && argv[i][len] == '=') {
      return argv[i] + len + 1;
    }
    if (strcmp(argv[i], name) == 0 && i + 1 < argc) {
      return argv[i + 1];
    }
  }
  return NULL;
}

static int has_wal(const char *data_dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/member/wal", data_dir);
  DIR *dir = opendir(path);
  if (dir == NULL) {
    return 0;
  }
  int found = 0;
  struct dirent *entry;
  while (!found && (entry = readdir(dir)) != NULL) {
    size_t n = strlen(entry->d_name);
    found = n > 4 && strcmp(entry->d_name + n - 4, ".wal") == 0;
  }
  closedir(dir);
  return found;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Writes path atomically (temporary file, fsync, rename) so a crash never leaves half an identity. */
static int write_file(const char *path, const char *content) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return -1;
  }
  size_t len = strlen(content);
  int ok = write(fd, content, len) == (ssize_t)len && fsync(fd) == 0;
  close(fd);
  if (!ok || rename(tmp, path) != 0) {
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* Reads up to size - 1 bytes of path into out as a string; 0 (and out empty) if it cannot be opened. */
static int read_text(const char *path, char *out, size_t size) {
  out[0] = '\0';
  FILE *in = fopen(path, "r");
  if (in == NULL) {
    return 0;
  }
  size_t n = fread(out, 1, size - 1, in);
  fclose(in);
  out[n] = '\0';
  return 1;
}

static void identity_path(char *out, size_t size, const char *data_dir) {
  snprintf(out, size, "%s/member/etcd-operator-identity", data_dir);
}

static void identity_text(char *out, size_t size, const char *name, const char *token) {
  snprintf(out, size, "name=%s\ntoken=%s\n", name, token);
}

/* A directory that names another member or another cluster is not this member's data, whatever it holds. */
static void check_identity(const char *data_dir, const char *name, const char *token) {
  char path[4096], expected[1024], found[1024];
  identity_path(path, sizeof path, data_dir);
  if (!read_text(path, found, sizeof found)) {
    return;
  }
  identity_text(expected, sizeof expected, name, token);
  if (strcmp(found, expected) != 0) {
    char *newline;
    while ((newline = strchr(found, '\n')) != NULL) {
      *newline = ' ';
    }
    refuse("data directory %s belongs to another member or cluster (%s), not to member %s of this cluster: "
           "refusing to start etcd on it",
           data_dir, found, name);
  }
}

/* Once etcd has a WAL: the directory is this member's, and a later start of this Pod without one lost it. */
static int mark(const char *data_dir, const char *name, const char *token, const char *marker) {
  char path[4096], identity[1024];
  identity_path(path, sizeof path, data_dir);
  identity_text(identity, sizeof identity, name, token);
  if (!exists(path) && write_file(path, identity) != 0) {
    say("cannot write %s: %s", path, strerror(errno));
  }
  if (marker != NULL && write_file(marker, name) != 0) {
    say("cannot write %s: %s", marker, strerror(errno));
    return 0;
  }
  return 1;
}

static void forward(int sig) {
  if (sig == SIGTERM || sig == SIGINT) {
    terminating = 1;
  }
  if (child > 0) {
    kill(child, sig);
  }
}

static int install(const char *dir) {
  char target[4096], tmp[4200], buf[65536];
  snprintf(target, sizeof target, "%s/etcd-guard", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", target);
  int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (in < 0 || out < 0) {
    say("cannot install into %s: %s", dir, strerror(errno));
    return 1;
  }
  ssize_t n;
  while ((n = read(in, buf, sizeof buf)) > 0) {
    if (write(out, buf, n) != n) {
      say("cannot write %s: %s", tmp, strerror(errno));
      return 1;
    }
  }
  close(in);
  if (n < 0 || fchmod(out, 0755) != 0 || close(out) != 0 || rename(tmp, target) != 0) {
    say("cannot install %s: %s", target, strerror(errno));
    return 1;
  }
  return 0;
}

/*
 * The token of a requested --force-new-cluster restart in the annotations file (key="token" lines), or "". Returns
 * whether the file could be read: an unreadable file says nothing either way.
 */
static int requested_token(const char *file, char *token, size_t size) {
  char text[65536];
  token[0] = '\0';
  if (!read_text(file, text, sizeof text)) {
    return 0;
  }
  const char *key = FORCE_ANNOTATION "=\"";
  for (char *line = text; line != NULL && *line != '\0';) {
    char *next = strchr(line, '\n');
    if (next != NULL) {
      *next++ = '\0';
    }
    if (strncmp(line, key, strlen(key)) == 0) {
      snprintf(token, size, "%s", line + strlen(key));
      char *quote = strrchr(token, '"');
      if (quote != NULL) {
        *quote = '\0';
      }
      return 1;
    }
    line = next;
  }
  return 1;
}

/* A token not yet applied in this Pod: each is applied once, so later restarts never force the cluster again. */
static int force_requested(const char *file, const char *applied_file, char *token, size_t size) {
  if (file == NULL || applied_file == NULL) {
    return 0;
  }
  requested_token(file, token, size);
  if (token[0] == '\0') {
    return 0;
  }
  char applied[256];
  read_text(applied_file, applied, sizeof applied);
  return strcmp(applied, token) != 0;
}

static pid_t start(char **etcd, int force) {
  size_t n = 0;
  while (etcd[n] != NULL) {
    n++;
  }
  char **argv = calloc(n + 2 + MAX_FORCE_FLAGS, sizeof *argv);
  if (argv == NULL) {
    return -1;
  }
  memcpy(argv, etcd, n * sizeof *argv);
  if (force) {
    argv[n++] = "--force-new-cluster";
    for (int i = 0; i < force_flag_count; i++) {
      argv[n++] = (char *)force_flags[i];
    }
  }
  pid_t pid = fork();
  if (pid == 0) {
    execv(argv[0], argv);
    say("cannot run %s: %s", argv[0], strerror(errno));
    _exit(127);
  }
  free(argv);
  return pid;
}

/* The operator removed its request from the Pod's annotations. */
static int withdrawn(const char *file) {
  char token[256];
  return file != NULL && requested_token(file, token, sizeof token) && token[0] == '\0';
}

/* SIGTERM, then SIGKILL after STOP_SECONDS; reaps orphans meanwhile (we may be PID 1). */
static void stop(pid_t pid) {
  kill(pid, SIGTERM);
  for (int tenths = 0;; tenths++) {
    int status;
    pid_t reaped = waitpid(-1, &status, WNOHANG);
    if (reaped == pid) {
      return;
    }
    if (reaped <= 0) {
      if (tenths == STOP_SECONDS * 10) {
        kill(pid, SIGKILL);
      }
      struct timespec tenth = {0, 100000000};
      nanosleep(&tenth, NULL);
    }
  }
}

/* Stops etcd and starts it again, with or without --force-new-cluster and its flags: 0, or the guard's exit code. */
static int restart(char **etcd, int force) {
  stop(child);
  if (terminating) {
    return 128 + SIGTERM; // the kubelet stops the Pod: no restart
  }
  child = start(etcd, force);
  if (child < 0) {
    say("cannot fork: %s", strerror(errno));
    return 1;
  }
  return 0;
}

/* The port of etcd's plain-HTTP metrics listener (--listen-metrics-urls=http://HOST:PORT), or 0. */
static int metrics_port(int argc, char **etcd) {
  for (int i = 0; i < argc; i++) {
    const char *url = NULL;
    if (strncmp(etcd[i], "--listen-metrics-urls=", 22) == 0) {
      url = etcd[i] + 22;
    } else if (strcmp(etcd[i], "--listen-metrics-urls") == 0 && i + 1 < argc) {
      url = etcd[i + 1];
    }
    if (url != NULL && strncmp(url, "http://", 7) == 0) {
      const char *colon = strrchr(url + 7, ':');
      return colon == NULL ? 0 : atoi(colon + 1);
    }
  }
  return 0;
}

/* 1: etcd says it has a leader; 0: it says it has none; -1: it did not answer (starting, wedged). */
static int has_leader(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    return -1;
  }
  struct timeval timeout = {2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short) port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  static char body[1 << 20];
  size_t length = 0;
  if (connect(fd, (struct sockaddr *) &address, sizeof address) == 0) {
    const char *get = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
    if (write(fd, get, strlen(get)) == (ssize_t) strlen(get)) {
      ssize_t n;
      while (length < sizeof body - 1 && (n = read(fd, body + length, sizeof body - 1 - length)) > 0) {
        length += (size_t) n;
      }
    }
  }
  close(fd);
  body[length] = '\0';
  if (strstr(body, "\netcd_server_has_leader 1") != NULL) {
    return 1;
  }
  return strstr(body, "\netcd_server_has_leader 0") != NULL ? 0 : -1;
}

/*
 * Whether a force-new-cluster request may be carried out now: etcd answered "no leader" LEADERLESS_POLLS times in a
 * row. A member that has a leader refuses the request for good (the token is recorded as applied).
 */
static int confirmed_leaderless(int port, int *leaderless, const char *name, const char *request,
                                const char *applied_file) {
  if (port == 0) {
    return 1;
  }
  int leader = has_leader(port);
  if (leader == 1) {
    write_file(applied_file, request);
    say("refusing %s=%s for %s: etcd has a leader, so the quorum holds and forcing a new cluster would drop it",
        FORCE_ANNOTATION, request, name);
    *leaderless = 0;
    return 0;
  }
  *leaderless = leader == 0 ? *leaderless + 1 : 0;
  return *leaderless >= LEADERLESS_POLLS;
}

static int supervise(char **etcd, const char *data_dir, const char *name, const char *token, const char *marker,
                     const char *recovery_file, const char *applied_file, int port) {
  struct sigaction action = {0};
  action.sa_handler = forward;
  sigemptyset(&action.sa_mask);
  int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
  for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
    sigaction(forwarded[i], &action, NULL);
  }
  char request[256];
  // with a metrics listener a request waits for etcd to say it has no leader, so the first start never forces
  int force = port == 0 && has_wal(data_dir) && force_requested(recovery_file, applied_file, request, sizeof request);
  if (force) {
    write_file(applied_file, request);
    say("starting %s once with --force-new-cluster (%s=%s)", name, FORCE_ANNOTATION, request);
  }
  child = start(etcd, force);
  int forced = force, leaderless = 0;
  if (child < 0) {
    say("cannot fork: %s", strerror(errno));
    return 1;
  }
  int marked = 0;
  for (;;) {
    if (!marked && has_wal(data_dir)) {
      marked = mark(data_dir, name, token, marker);
    }
    int status;
    int poll = !marked || recovery_file != NULL;
    pid_t pid = waitpid(-1, &status, poll ? WNOHANG : 0); // also reaps orphans: we may be PID 1
    if (pid == child) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !terminating) {
        report(STOPPED_BY_ITSELF); // etcd does so once it applied its own removal from the cluster
      }
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (pid > 0) {
      continue;
    }
    if (marked && force_requested(recovery_file, applied_file, request, sizeof request)
        && confirmed_leaderless(port, &leaderless, name, request, applied_file)) {
      write_file(applied_file, request); // before the restart: a crash in between must not force twice
      say("restarting %s once with --force-new-cluster (%s=%s)", name, FORCE_ANNOTATION, request);
      int code = restart(etcd, 1);
      if (code != 0) {
        return code;
      }
      forced = 1;
      continue;
    }
    if (forced && force_flag_count > 0 && withdrawn(recovery_file)) {
      // as a PVC survivor restarts without the mark: a snapshot after every write is no way to run on
      say("restarting %s without --force-new-cluster and its flags: the request is withdrawn", name);
      int code = restart(etcd, 0);
      if (code != 0) {
        return code;
      }
      forced = 0;
      continue;
    }
    if (poll) {
      // until marked, a wipe between etcd's first WAL write and the mark would pass the next start: look often
      struct timespec wait = marked ? (struct timespec){1, 0} : (struct timespec){0, 20 * 1000 * 1000};
      nanosleep(&wait, NULL);
    }
  }
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "install") == 0) {
    return install(argv[2]);
  }
  int expect_data = 0, i = 1;
  const char *state_dir = NULL, *recovery_file = NULL;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--expect-data") == 0) {
      expect_data = 1;
    } else if (strncmp(argv[i], "--state-dir=", 12) == 0) {
      state_dir = argv[i] + 12;
    } else if (strncmp(argv[i], "--recovery-file=", 16) == 0) {
      recovery_file = argv[i] + 16;
    } else if (strncmp(argv[i], "--force-flag=", 13) == 0 && force_flag_count < MAX_FORCE_FLAGS) {
      force_flags[force_flag_count++] = argv[i] + 13;
    } else {
      say("unknown option %s", argv[i]);
      return 2;
    }
  }
  if (i + 1 >= argc) {
    say("usage: etcd-guard install DIR | etcd-guard [--expect-data] --state-dir=DIR [--recovery-file=FILE] "
        "[--force-flag=FLAG]... -- ETCD ARGS...");
    return 2;
  }
  char **etcd = argv + i + 1;
  int etcd_argc = argc - i - 1;
  const char *name = flag(etcd_argc, etcd, "--name");
  const char *data_dir = flag(etcd_argc, etcd, "--data-dir");
  const char *token = flag(etcd_argc, etcd, "--initial-cluster-token");
  if (name == NULL || data_dir == NULL) {
    say("etcd needs --name and --data-dir for the guard to check its data");
    return 2;
  }
  token = token == NULL ? "" : token;
  char marker[4096] = {0}, applied[4096] = {0};
  if (state_dir != NULL) {
    snprintf(marker, sizeof marker, "%s/%s.started", state_dir, name);
    snprintf(applied, sizeof applied, "%s/%s.force-new-cluster", state_dir, name);
  }
  check_identity(data_dir, name, token);
  if (!has_wal(data_dir)) {
    if (expect_data) {
      refuse("member %s has run before, but its data directory %s holds no WAL: its data is lost, and etcd must "
             "not start it again under its old member ID (the operator replaces the member)", name, data_dir);
    }
    if (marker[0] != '\0' && exists(marker)) {
      refuse("member %s ran in this Pod with a WAL, but its data directory %s holds none now: its data is lost, "
             "and etcd must not start it again under its old member ID (the operator replaces the member)",
             name, data_dir);
    }
  }
  return supervise(etcd, data_dir, name, token, marker[0] == '\0' ? NULL : marker, recovery_file,
                   applied[0] == '\0' ? NULL : applied, metrics_port(etcd_argc, etcd));
}
