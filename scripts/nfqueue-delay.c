/*
 * nfqueue-delay: holds every packet of an NFQUEUE for a fixed time, then lets it go, in order.
 * `make bench`'s RTT section (scripts/bench-rtt) runs it in a private network namespace with
 *
 *     iptables -A OUTPUT -o lo -j NFQUEUE --queue-num 0
 *
 * so that every loopback packet waits DELAY_MS once: a round trip of 2 x DELAY_MS, as these
 * kernels have no netem. One thread: packets arrive in order and all wait the same time, so
 * the verdicts are given in arrival order, each when its time has come.
 *
 *     nfqueue-delay QUEUE DELAY_MS
 *
 * Prints "ready" once bound to the queue. Build: cc -O2 -o nfqueue-delay nfqueue-delay.c
 * -lnetfilter_queue (libnetfilter-queue-dev).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define CAPACITY 65536

static struct {
    uint32_t id;
    uint64_t due_ns;
} held[CAPACITY];
static size_t head, count;
static uint64_t delay_ns;

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int on_packet(struct nfq_q_handle *queue, struct nfgenmsg *message, struct nfq_data *data, void *context) {
    (void)message;
    (void)context;
    struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(data);
    if (header == NULL) return 0;
    uint32_t id = ntohl(header->packet_id);
    if (count == CAPACITY) return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL);  /* full: no delay */
    size_t slot = (head + count) % CAPACITY;
    held[slot].id = id;
    held[slot].due_ns = now_ns() + delay_ns;
    count++;
    return 0;
}

/* Gives the verdict for every packet whose time has come. */
static void release_due(struct nfq_q_handle *queue) {
    uint64_t now = now_ns();
    while (count > 0 && held[head].due_ns <= now) {
        nfq_set_verdict(queue, held[head].id, NF_ACCEPT, 0, NULL);
        head = (head + 1) % CAPACITY;
        count--;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: nfqueue-delay QUEUE DELAY_MS\n");
        return 64;
    }
    int queue_number = atoi(argv[1]);
    delay_ns = (uint64_t)atoll(argv[2]) * 1000000u;
    struct nfq_handle *handle = nfq_open();
    if (handle == NULL) {
        perror("nfqueue-delay: nfq_open");
        return 1;
    }
    struct nfq_q_handle *queue = nfq_create_queue(handle, (uint16_t)queue_number, on_packet, NULL);
    if (queue == NULL) {
        perror("nfqueue-delay: nfq_create_queue (is nfnetlink_queue in the kernel?)");
        return 1;
    }
    nfq_set_mode(queue, NFQNL_COPY_META, 0);
    nfq_set_queue_maxlen(queue, CAPACITY);
    int socket = nfq_fd(handle);
    int buffer_size = 8 << 20;
    setsockopt(socket, SOL_SOCKET, SO_RCVBUFFORCE, &buffer_size, sizeof(buffer_size));
    printf("ready\n");
    fflush(stdout);
    char buffer[65536] __attribute__((aligned));
    for (;;) {
        int timeout = -1;
        if (count > 0) {
            uint64_t now = now_ns(), due = held[head].due_ns;
            timeout = due <= now ? 0 : (int)((due - now + 999999) / 1000000);
        }
        struct pollfd poller = { .fd = socket, .events = POLLIN, .revents = 0 };
        int ready = poll(&poller, 1, timeout);
        if (ready < 0 && errno != EINTR) {
            perror("nfqueue-delay: poll");
            return 1;
        }
        if (ready > 0) {
            ssize_t length = recv(socket, buffer, sizeof(buffer), MSG_DONTWAIT);
            if (length > 0) nfq_handle_packet(handle, buffer, (int)length);
            else if (length < 0 && errno == ENOBUFS) fprintf(stderr, "nfqueue-delay: packets lost (ENOBUFS)\n");
        }
        release_due(queue);
    }
}
