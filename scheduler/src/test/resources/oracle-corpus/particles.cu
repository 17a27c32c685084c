// Particle update with an array of structs: integrate velocity under gravity with drag, move, reflect off the
// walls of a box (losing some speed), and retire particles older than their lifetime.

struct PtParticle {
    float3 pos;
    float3 vel;
    float age;
    int alive;
};

__device__ void pt_bounce(float* p, float* v, float lo, float hi, float restitution)
{
    if (*p < lo) {
        *p = lo + (lo - *p);
        *v = -*v * restitution;
    } else if (*p > hi) {
        *p = hi - (*p - hi);
        *v = -*v * restitution;
    }
}

extern "C" __global__ void particles_step(PtParticle* ps, int n, float dt, float drag, float lifetime)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    PtParticle p = ps[i];
    if (!p.alive) {
        return;
    }
    p.vel.y -= 9.81f * dt;
    float keep = 1.0f - drag * dt;
    p.vel.x *= keep;
    p.vel.y *= keep;
    p.vel.z *= keep;
    p.pos.x += p.vel.x * dt;
    p.pos.y += p.vel.y * dt;
    p.pos.z += p.vel.z * dt;
    pt_bounce(&p.pos.x, &p.vel.x, -10.0f, 10.0f, 0.8f);
    pt_bounce(&p.pos.y, &p.vel.y, 0.0f, 20.0f, 0.6f);
    pt_bounce(&p.pos.z, &p.vel.z, -10.0f, 10.0f, 0.8f);
    p.age += dt;
    if (p.age > lifetime) {
        p.alive = 0;
    }
    ps[i] = p;
}
